#!/bin/sh
# Host check of the capture format against a real CTF reader: mkcapture
# writes a synthetic capture (every record type, an extended header in
# each stream after a 5 s gap, compact timestamps wrapping their low 32
# bits); babeltrace2
# must read it without error, with the counts mkcapture wrote, the same
# timestamps and switch names as `coretrace report`, and no stream going
# back in time.
#
#   bt2-check.sh MKCAPTURE CORETRACE WORKDIR
set -u
mk=$1 ct=$2 work=$3/bt2-check
command -v babeltrace2 >/dev/null || { echo "bt2-check: babeltrace2 is missing (make deps)"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
passed=0 failed=0
check() {
	if [ "$2" = "$3" ]; then
		passed=$((passed + 1))
	else
		echo "bt2-check: FAIL: $1: expected '$2', saw '$3'"
		failed=$((failed + 1))
	fi
}

"$mk" -n 200000 -c 4 "$work/cap" > "$work/counts" || { echo "bt2-check: mkcapture failed"; exit 1; }
babeltrace2 --clock-cycles "$work/cap" > "$work/bt.txt" 2> "$work/bt.err"
check "babeltrace2 exit status" 0 $?
check "babeltrace2 messages on stderr" 0 "$(wc -c < "$work/bt.err")"
check "events babeltrace2 read (records and function names)" \
	"$(awk '{ n += $2 } END { print n }' "$work/counts")" "$(wc -l < "$work/bt.txt")"
check "function names in the capture" 64 "$(awk '$1 == "coretrace_ksym" { print $2 }' "$work/counts")"
# per event name: what mkcapture wrote against what babeltrace2 read
sed -n 's/^\[[0-9]*\] ([^)]*) [^ ]* \([a-z_]*\): .*/\1/p' "$work/bt.txt" | sort | uniq -c |
	awk '{ print $2, $1 }' > "$work/bt.counts"
check "per-event counts" "$(awk '$2 > 0' "$work/counts" | sort)" "$(sort "$work/bt.counts")"

"$ct" report --format json "$work/cap" > "$work/report.json" 2> "$work/report.err"
check "coretrace report exit status" 0 $?
check "report names functions from the capture" 1 \
	"$(grep -m 1 -c '"function":"mk_function_[0-9]*"' "$work/report.json")"
# every timestamp, in both readers (sorted: the two merge streams differently)
sed 's/^\[0*\([0-9]*\)\].*/\1/' "$work/bt.txt" | sort -n > "$work/bt.ts"
sed -n 's/^{"ts":\([0-9]*\),.*/\1/p' "$work/report.json" | sort -n > "$work/report.ts"
check "records coretrace report printed" "$(wc -l < "$work/bt.ts")" \
	"$(( $(wc -l < "$work/report.ts") + $(awk '$1 ~ /^coretrace_/ { n += $2 } END { print n }' "$work/counts") ))"
check "timestamps of sched_switch, babeltrace2 against coretrace report" \
	"$(grep 'sched_switch:' "$work/bt.txt" | sed 's/^\[0*\([0-9]*\)\].*next_tid = \([0-9]*\), next_comm = "\([^"]*\)".*/\1 \2 \3/' | sort | md5sum)" \
	"$(grep '"sched_switch"' "$work/report.json" | sed 's/^{"ts":\([0-9]*\),.*"next_comm":"\([^"]*\)","next_pid":\([0-9]*\),.*/\1 \3 \2/' | sort | md5sum)"
sed -n 's/^\[0*\([0-9]*\)\].*cpu_id = \([0-9]*\) .*/\2 \1/p' "$work/bt.txt" > "$work/bt.cpu-ts"
# (coretrace report prints no line for the name announcements)
grep -v ' coretrace_[a-z_]*: ' "$work/bt.txt" | sed 's/^\[0*\([0-9]*\)\].*/\1/' | sort -n > "$work/bt.printed.ts"
check "timestamps of every printed record, babeltrace2 against coretrace report" \
	"$(md5sum < "$work/bt.printed.ts")" "$(md5sum < "$work/report.ts")"
gap=$(awk '{ if (($1 in last) && $2 - last[$1] >= 4294967296) n++; last[$1] = $2 } END { print n + 0 }' "$work/bt.cpu-ts")
check "gaps of 2^32 ns or more, one per stream (extended headers)" 4 "$gap"
back=$(awk '{ if (($1 in last) && $2 < last[$1]) n++; last[$1] = $2 } END { print n + 0 }' "$work/bt.cpu-ts")
check "timestamps going back within a stream" 0 "$back"

# the other views of the same capture: the Perfetto conversion against
# the raw records, the timechart as well-formed SVG with a lane per CPU
"$ct" convert "$work/cap" --perfetto "$work/trace.json" 2> "$work/convert.err"
check "coretrace convert exit status" 0 $?
"$(dirname "$0")/check-perfetto.py" "$work/trace.json" "$work/report.json" 1000=task-0 1047=task-47
check "check-perfetto" 0 $?
"$ct" timechart "$work/cap" -o "$work/chart.svg" -n 10 2> "$work/timechart.err"
check "coretrace timechart exit status" 0 $?
check "timechart lanes (4 CPUs, 10 tasks)" "4 10" "$(python3 -c '
import sys, xml.etree.ElementTree as et
texts = [t.text or "" for t in et.parse(sys.argv[1]).iter("{http://www.w3.org/2000/svg}text")]
cpus = sum(1 for t in texts if t[4:].isdigit() and t.startswith("CPU "))
tasks = sum(1 for t in texts if t.startswith("task-") and t.endswith("]"))
print(cpus, tasks)' "$work/chart.svg")"

echo "bt2-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
