#!/bin/sh
# The host-side decode benchmark: a synthetic capture of RECORDS records
# (tests/host/mkcapture, 4 CPUs), read on one core by `coretrace report
# --top` and by babeltrace2, each timed by /usr/bin/time (wall clock, peak
# RSS) the best of RUNS times. babeltrace2 is run twice: printing text to
# /dev/null (its default pretty sink), and into its dummy sink (decoding
# only). Prints a Markdown table and writes it to OUT.
#
#   decode.sh MKCAPTURE CORETRACE WORKDIR OUT [RECORDS] [RUNS]
set -eu
mk=$1 ct=$2 work=$3 out=$4 records=${5:-10000000} runs=${6:-3}
cpu=0
command -v babeltrace2 >/dev/null || { echo "decode: babeltrace2 is missing (make deps)"; exit 1; }
mkdir -p "$work"
cap=$work/decode-$records
if [ ! -s "$cap/metadata" ]; then
	rm -rf "$cap"
	"$mk" -n "$records" -c 4 "$cap" > /dev/null
fi
bytes=$(du -sb "$cap" | cut -f1)

# best RUNS of: seconds and peak RSS (KB) of a command, on one CPU
best() {
	best_s= best_kb=
	i=0
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -f "%e %M" -o "$work/time.out" taskset -c $cpu "$@" > /dev/null 2>&1
		read -r s kb < "$work/time.out"
		if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then
			best_s=$s
			best_kb=$kb
		fi
		i=$((i + 1))
	done
	echo "$best_s $best_kb"
}

row() {
	set -- "$1" $2
	awk -v name="$1" -v s="$2" -v kb="$3" -v n="$records" \
		'BEGIN { printf "| %s | %.2f | %.2f | %.1f |\n", name, s, n / s / 1e6, kb / 1024 }'
}

ct_top=$(best "$ct" report --top "$cap")
ct_lat=$(best "$ct" report --latency "$cap")
bt_text=$(best babeltrace2 "$cap")
bt_dummy=$(best babeltrace2 "$cap" -c sink.utils.dummy)
{
	echo "Decode benchmark, $(date -u +%Y-%m-%d), $(uname -m), one CPU (taskset -c $cpu), best of $runs"
	echo
	echo "Capture: tests/host/mkcapture -n $records -c 4 ($((bytes / 1048576)) MiB, $(awk -v b="$bytes" -v n="$records" 'BEGIN { printf "%.1f", b / n }') bytes per record)"
	echo
	echo "| reader | seconds | million records/s | peak RSS MiB |"
	echo "| --- | ---: | ---: | ---: |"
	row "coretrace report --top" "$ct_top"
	row "coretrace report --latency" "$ct_lat"
	row "babeltrace2 (text to /dev/null)" "$bt_text"
	row "babeltrace2 -c sink.utils.dummy" "$bt_dummy"
} | tee "$out"
