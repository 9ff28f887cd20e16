#!/bin/sh
# Read the captures sent by t_capture and t_crash with babeltrace2 and
# check them.
#
#   check-capture.sh ARTIFACT_DIR
set -u
art=$1
dir=$art/capture counts=$art/capture.counts
command -v babeltrace2 >/dev/null || { echo "check-capture: babeltrace2 is missing (make deps)"; exit 1; }
[ -s "$dir/metadata" ] && [ -s "$counts" ] || { echo "check-capture: FAIL: no capture in $art"; exit 1; }

babeltrace2 --clock-cycles "$dir" > "$art/babeltrace.txt" 2> "$art/babeltrace.err"
rc=$?
failed=0
if [ $rc -ne 0 ] || [ -s "$art/babeltrace.err" ]; then
	echo "check-capture: FAIL: babeltrace2 exited $rc"
	sed 's/^/    /' "$art/babeltrace.err" | head -n 20
	failed=1
fi
echo "check-capture: babeltrace2 read $(wc -l < "$art/babeltrace.txt") events from $dir"

# counts per event: babeltrace2's against coretrace's (names: comm and
# irq_name are coretrace_*)
awk -v bt="$art/babeltrace.txt" '
	$1 == "pingpong" { next }
	{ name = $1; if (name == "comm" || name == "irq_name" || name == "task_cgroup" || name == "cgroup_name") name = "coretrace_" name
	  want[name] = $2 }
	END {
		while ((getline line < bt) > 0) {
			if (match(line, /\) [^ ]+ [a-z_]+: /)) {
				ev = substr(line, RSTART, RLENGTH); sub(/:.*/, "", ev); sub(/.* /, "", ev)
				got[ev]++
			}
		}
		bad = 0
		for (e in want) {
			printf "check-capture: %-22s coretrace %7d  babeltrace2 %7d  %s\n", e, want[e], got[e] + 0,
				(want[e] == got[e] + 0 ? "ok" : "FAIL")
			if (want[e] != got[e] + 0) bad++
		}
		for (e in got) if (!(e in want) && e !~ /^coretrace_(ksym|kstack|ustack|module|usym)$/) { printf "check-capture: FAIL: unexpected event %s\n", e; bad++ }
		exit bad > 0
	}' "$counts" || failed=1

# coretrace's own reader (it only reads files) must see the same records
if [ -x ./coretrace ]; then
	./coretrace report "$dir" > "$art/report.txt" 2> "$art/report.err"
	rc=$?
	read_n=$(sed -n 's/^coretrace report: \([0-9]*\) records read from .*/\1/p' "$art/report.err")
	bt_n=$(grep -Evc ' coretrace_(ksym|kstack|ustack|module|usym): ' "$art/babeltrace.txt")
	echo "check-capture: coretrace report read ${read_n:-?} records (exit $rc), babeltrace2 $bt_n"
	if [ "$rc" -ne 0 ] || [ "${read_n:-x}" != "$bt_n" ]; then
		echo "check-capture: FAIL: coretrace report: $(cat "$art/report.err")"
		failed=1
	fi
fi

# the captures of t_crash: killed with SIGKILL, and cut by a full disk.
# babeltrace2 must read every packet without error, exactly the records
# coretrace report read in the guest.
for cut in kill full; do
	cdir=$art/$cut
	if [ ! -s "$cdir/metadata" ] || [ ! -s "$art/$cut.report" ]; then
		echo "check-capture: FAIL: no '$cut' capture from t_crash in $art"
		failed=1
		continue
	fi
	babeltrace2 "$cdir" > "$art/$cut.babeltrace.txt" 2> "$art/$cut.babeltrace.err"
	rc=$?
	# function names (coretrace_ksym) are events to babeltrace2, not records
	bt_n=$(grep -vc ' coretrace_ksym: ' "$art/$cut.babeltrace.txt")
	guest_n=$(sed -n 's/^coretrace report: \([0-9]*\) records \(read\|recovered\) from .*/\1/p' "$art/$cut.report")
	echo "check-capture: $cut capture: babeltrace2 read $bt_n events (exit $rc), coretrace report in the guest ${guest_n:-?}"
	if [ $rc -ne 0 ] || [ -s "$art/$cut.babeltrace.err" ] || [ "$bt_n" != "${guest_n:-x}" ] || [ "$bt_n" -eq 0 ]; then
		echo "check-capture: FAIL: $cut capture"
		sed 's/^/    /' "$art/$cut.babeltrace.err" | head -n 20
		failed=1
	fi
done

# the ping-pong tids, and clocks that never go back within a stream
set -- $(awk '$1 == "pingpong" { print $2, $3, $4 }' "$counts")
ping=$1 pong=$2 rounds=$3
pairs=$(grep -c -e "prev_tid = $ping, next_tid = $pong," -e "prev_tid = $pong, next_tid = $ping," "$art/babeltrace.txt")
echo "check-capture: ping-pong switches in babeltrace2's output: $pairs (rounds $rounds)"
[ "$pairs" -ge "$rounds" ] || { echo "check-capture: FAIL: expected at least $rounds"; failed=1; }
back=$(sed -n 's/^\[\([0-9]*\)\].*cpu_id = \([0-9]*\) .*/\2 \1/p' "$art/babeltrace.txt" |
	awk '{ if (($1 in last) && $2 < last[$1]) n++; last[$1] = $2 } END { print n + 0 }')
echo "check-capture: timestamps going back within a stream: $back"
[ "$back" -eq 0 ] || failed=1
exit $failed
