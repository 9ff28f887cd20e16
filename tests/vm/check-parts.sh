#!/bin/sh
# Read the parts of always-on recordings sent by t_flight (flight-recorder
# snapshots, rotated chunks, and what SIGKILL left of both) and t_trigger
# (the needle's snapshot) and t_soak (every snapshot and kept chunk) with
# babeltrace2, each part alone and each rotated directory whole, and
# compare with coretrace report: on this host, and in the guest for the
# whole directories.
#
#   check-parts.sh ARTIFACT_DIR
set -u
art=$1
command -v babeltrace2 >/dev/null || { echo "check-parts: babeltrace2 is missing (make deps)"; exit 1; }
[ -x ./coretrace ] || { echo "check-parts: no ./coretrace to compare with"; exit 1; }
failed=0

# bt_count DIR: events babeltrace2 reads from DIR (function names apart),
# or FAIL when it says anything on stderr or exits non-zero
bt_count() {
	babeltrace2 "$1" > "$art/parts.bt.txt" 2> "$art/parts.bt.err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$art/parts.bt.err" ]; then
		sed 's/^/    /' "$art/parts.bt.err" | head -n 10 >&2
		echo FAIL
		return
	fi
	grep -Evc ' coretrace_(ksym|kstack|ustack|module|usym): ' "$art/parts.bt.txt"
}

# ct_count DIR: records coretrace report reads from DIR, or FAIL
ct_count() {
	./coretrace report "$1" > /dev/null 2> "$art/parts.ct.err" || { echo FAIL; return; }
	sed -n 's/^coretrace report: \([0-9]*\) records \(read\|recovered\) from .*/\1/p' "$art/parts.ct.err"
}

# compare WHAT BABELTRACE2 COREtrace [GUEST]
compare() {
	if [ "$2" = FAIL ] || [ "$3" = FAIL ] || [ "$2" != "$3" ] ||
	   { [ -n "${4:-}" ] && [ "$4" != "$2" ]; } || [ "${2:-0}" -eq 0 ] 2>/dev/null; then
		echo "check-parts: FAIL: $1: babeltrace2 $2, coretrace report $3${4:+, in the guest $4}"
		failed=1
	else
		echo "check-parts: $1: babeltrace2 $2, coretrace report $3${4:+, in the guest $4}: ok"
	fi
}

# guest_count NAME: what coretrace report said in the guest (NAME.report)
guest_count() {
	sed -n 's/^coretrace report: \([0-9]*\) records \(read\|recovered\) from .*/\1/p' "$art/$1.report"
}

parts=0
for d in "$art"/fr1 "$art"/fr2 "$art"/frk1 "$art"/tr "$art"/rot/chunk-* "$art"/rotk/chunk-*; do
	[ -s "$d/metadata" ] || continue
	parts=$((parts + 1))
	name=${d#"$art"/}
	case $name in
	fr1 | fr2 | frk1 | tr) guest=$(guest_count "$name") ;;
	*) guest= ;;
	esac
	compare "$name" "$(bt_count "$d")" "$(ct_count "$d")" "$guest"
done
# snapshots 1, 2 and the one before the kill; three kept chunks; four
# chunks of the killed rotation, or three when the kill left the fourth
# empty and the writer removed it (t_flight); the needle's snapshot (t_trigger)
if [ "$parts" -lt 10 ]; then
	echo "check-parts: FAIL: $parts parts sent by t_flight and t_trigger, expected 10 or 11"
	failed=1
fi
# the soak's snapshots and kept chunks (t_soak), with the guest's counts
if [ ! -s "$art/soak.counts" ]; then
	echo "check-parts: FAIL: no soak.counts from t_soak"
	failed=1
else
	while read -r name guest; do
		compare "$name" "$(bt_count "$art/$name")" "$(ct_count "$art/$name")" "$guest"
	done < "$art/soak.counts"
fi
for whole in rot rotk; do
	if [ ! -d "$art/$whole" ]; then
		echo "check-parts: FAIL: no rotated directory '$whole' from t_flight"
		failed=1
		continue
	fi
	compare "$whole (whole directory)" "$(bt_count "$art/$whole")" \
		"$(ct_count "$art/$whole")" "$(guest_count "$whole")"
done
exit $failed
