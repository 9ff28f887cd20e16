#!/bin/sh
# The normalized record streams of the deterministic workload (t_stream)
# must be identical on every kernel; print a diff when they are not.
#
#   compare-streams.sh KIND=STREAM.txt KIND=STREAM.txt...
set -u
first= first_kind= failed=0
for pair in "$@"; do
	kind=${pair%%=*} file=${pair#*=}
	if [ ! -s "$file" ]; then
		echo "compare-streams: FAIL: no stream from $kind ($file)"
		failed=1
		continue
	fi
	if [ -z "$first" ]; then
		first=$file first_kind=$kind
		continue
	fi
	if diff -u --label "$first_kind" --label "$kind" "$first" "$file"; then
		echo "compare-streams: $kind = $first_kind ($(wc -l < "$file") records)"
	else
		echo "compare-streams: FAIL: $kind differs from $first_kind"
		failed=1
	fi
done
exit $failed
