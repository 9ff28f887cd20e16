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
	"$(grep 'sched_switch:' "$work/bt.txt" | sed 's/^\[0*\([0-9]*\)\].*next_tid = \([0-9]*\),.*next_comm = "\([^"]*\)".*/\1 \2 \3/' | sort | md5sum)" \
	"$(grep '"sched_switch"' "$work/report.json" | sed 's/^{"ts":\([0-9]*\),.*"next_pid":\([0-9]*\),.*"next_comm":"\([^"]*\)".*/\1 \2 \3/' | sort | md5sum)"
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
"$(dirname "$0")/check-perfetto.py" "$work/trace.json" "$work/report.json" 1000=task-0 1047=task-47 \
	1000@/ 1001@/system.slice 1002@/system.slice/db.service
check "check-perfetto" 0 $?
"$ct" timechart "$work/cap" -o "$work/chart.svg" -n 10 2> "$work/timechart.err"
check "coretrace timechart exit status" 0 $?
check "timechart lanes (4 CPUs, 10 tasks)" "4 10" "$(python3 -c '
import sys, xml.etree.ElementTree as et
texts = [t.text or "" for t in et.parse(sys.argv[1]).iter("{http://www.w3.org/2000/svg}text")]
cpus = sum(1 for t in texts if t[4:].isdigit() and t.startswith("CPU "))
tasks = sum(1 for t in texts if t.startswith("task-") and t.endswith("]"))
print(cpus, tasks)' "$work/chart.svg")"

# a busy capture's task lanes show how much each task ran: the running
# share of their area is the share report --top gives the same tasks
"$mk" -n 1000000 -c 4 "$work/busy" > /dev/null || { echo "bt2-check: mkcapture failed"; exit 1; }
"$ct" timechart "$work/busy" -o "$work/busy.svg" -n 10 2> /dev/null
check "timechart of a busy capture: exit status" 0 $?
chart=$(python3 -c '
import sys, xml.etree.ElementTree as et
area = {}
for r in et.parse(sys.argv[1]).iter("{http://www.w3.org/2000/svg}rect"):
    if r.get("fill") in ("#2e7d32", "#e53935", "#e3e7ee"):
        area[r.get("fill")] = area.get(r.get("fill"), 0) + float(r.get("width")) * float(r.get("height"))
print("%.2f" % (100 * area.get("#2e7d32", 0) / sum(area.values())))' "$work/busy.svg" 2>&1)
top=$("$ct" report --top -n 10 --json "$work/busy" 2> /dev/null | python3 -c '
import json, sys
rows = [r for r in json.load(sys.stdin)["rows"] if r["category"] == "Process"]
print("%.2f" % (sum(r["usage_ms_per_s"] for r in rows[:10]) / 100))' 2>&1)
echo "bt2-check: the 10 busiest tasks ran ${top}% of the window (report --top); running is ${chart}% of their lanes' area"
check "timechart's running share within 1 point of report's" 1 \
	"$(awk -v a="$chart" -v b="$top" 'BEGIN { d = a - b; print (d >= -1 && d <= 1) }')"
# --by cgroup: a CPU lane's colour is its task's group; each group's share
# of the CPU lanes' area is its share of the CPUs in report --top --by
# cgroup (a column takes the colour that held it longest: at 20000 columns
# the shares are within 0.3 points, at 1600 within 2)
"$ct" timechart "$work/busy" -o "$work/groups.svg" --by cgroup -w 20000 2> /dev/null
check "timechart --by cgroup: exit status" 0 $?
"$ct" report --top --by cgroup --json "$work/busy" > "$work/groups.json" 2> /dev/null
check "timechart --by cgroup: groups whose share of the CPU lanes is off by more than 1 point of report's" \
	"0 of 4" "$(python3 -c '
import json, sys, xml.etree.ElementTree as et
ns = "{http://www.w3.org/2000/svg}"
svg = et.parse(sys.argv[1]).getroot()
texts = list(svg.iter(ns + "text"))
rects = list(svg.iter(ns + "rect"))
boxes = [r for r in rects if r.get("stroke")]    # legend boxes, in order
legend = {t.text: r.get("fill") for r, t in zip(boxes, texts[-len(boxes):])}
area = {}
for r in rects:
    # CPU lanes: a colour per group, or idle (task lanes have three others)
    if r.get("height") == "20" and (r.get("fill").startswith("hsl") or r.get("fill") == "#c9ced6"):
        area[r.get("fill")] = area.get(r.get("fill"), 0) + float(r.get("width"))
total = sum(area.values())
report = json.load(open(sys.argv[2]))
cpus = len(report["cpus"])
groups = [g for g in report["groups"] if g["cgroup"]]
off = sum(1 for g in groups
          if abs(100 * area.get(legend.get(g["cgroup"]), 0) / total -
                 g["usage_ms_per_s"] / 10 / cpus) > 1)
print(off, "of", len(groups))' "$work/groups.svg" "$work/groups.json" 2>&1)"
# a narrow chart still holds its title and legend (text about 7 px a
# character at 12 px, 9 px at 16 px)
"$ct" timechart "$work/busy" -o "$work/narrow.svg" -n 3 -w 100 2> /dev/null
check "timechart -w 100: exit status" 0 $?
check "timechart -w 100: texts past the picture's right edge" 0 "$(python3 -c '
import sys, xml.etree.ElementTree as et
svg = et.parse(sys.argv[1]).getroot()
width = float(svg.get("width"))
out = 0
for t in svg.iter("{http://www.w3.org/2000/svg}text"):
    px = 9 if t.get("class") == "t" else 7
    out += float(t.get("x")) + px * len(t.text or "") > width
print(out)' "$work/narrow.svg" 2>&1)"

# losses: babeltrace2 warns of the records each CPU's packets say were
# discarded; coretrace's readers say the same, CPU by CPU
"$mk" -n 20000 -c 4 -l 1:500 -l 3:7 "$work/lost" > /dev/null || { echo "bt2-check: mkcapture -l failed"; exit 1; }
babeltrace2 "$work/lost" > /dev/null 2> "$work/lost.bt.err"
check "babeltrace2's warnings of discarded events" \
	"stream_1 500
stream_3 7" "$(sed -n 's/.*discarded \([0-9]*\) events .*stream "[^"]*\/\(stream_[0-9]*\)".*/\2 \1/p' "$work/lost.bt.err" | sort)"
for view in "" --top --latency; do
	"$ct" report $view "$work/lost" > "$work/lost.out" 2> "$work/lost.err"
	check "report $view over losses: exit status" 0 $?
	check "report $view over losses: the CPUs that lost records" \
		"1 500
3 7
all 507" "$(sed -n -e 's/^coretrace report: CPU \([0-9]*\) lost \([0-9]*\) records while recording.*/\1 \2/p' \
			-e 's/^coretrace report: \([0-9]*\) records lost in all, on 2 CPUs$/all \1/p' "$work/lost.err")"
done
"$ct" report --top --format json "$work/lost" > "$work/lost.json" 2> /dev/null
check "report --top --format json: records_lost in all and per CPU" "507 0 500 0 7" \
	"$(grep -o '"records_lost":[0-9]*' "$work/lost.json" | cut -d: -f2 | tr '\n' ' ' | sed 's/ $//')"
"$ct" report --top "$work/lost" 2> /dev/null | head -n 1 > "$work/lost.head"
check "report --top's first line says what was lost" 1 "$(grep -c ', 507 lost while recording' "$work/lost.head")"
"$ct" convert "$work/lost" --perfetto "$work/lost.trace.json" 2> "$work/lost.err"
check "convert over losses: lines naming the CPUs" 3 "$(grep -c '^coretrace convert: .* lost ' "$work/lost.err")"
"$ct" timechart "$work/lost" -o "$work/lost.svg" 2> "$work/lost.err"
check "timechart over losses: lines naming the CPUs" 3 "$(grep -c '^coretrace timechart: .* lost ' "$work/lost.err")"

# a damaged stream: every reader keeps what it could read, says what it
# skipped and exits 2; a missing capture is exit 2 for each of them too
cp -r "$work/lost" "$work/damaged"
printf 'XXXX' | dd of="$work/damaged/stream_2" bs=1 seek=0 conv=notrunc 2> /dev/null
"$ct" report "$work/damaged" > /dev/null 2> "$work/damaged.err"
check "report over a damaged stream: exit status" 2 $?
check "report over a damaged stream: what it recovered" 1 \
	"$(grep -c 'stream_2: offset 0: wrong packet magic; [0-9]* records recovered, 1 stream file damaged' "$work/damaged.err")"
"$ct" timechart "$work/damaged" -o "$work/damaged.svg" 2> "$work/damaged.err"
check "timechart over a damaged stream: exit status" 2 $?
check "timechart over a damaged stream: what it recovered" 1 \
	"$(grep -c 'stream_2: offset 0: wrong packet magic; [0-9]* records recovered, 1 stream file damaged' "$work/damaged.err")"
check "timechart over a damaged stream: the chart, with lanes for the 3 CPUs read" 3 "$(python3 -c '
import sys, xml.etree.ElementTree as et
texts = [t.text or "" for t in et.parse(sys.argv[1]).iter("{http://www.w3.org/2000/svg}text")]
print(sum(1 for t in texts if t[4:].isdigit() and t.startswith("CPU ")))' "$work/damaged.svg" 2>&1)"
"$ct" convert "$work/damaged" --perfetto "$work/damaged.json" 2> "$work/damaged.err"
check "convert over a damaged stream: exit status" 2 $?
check "convert over a damaged stream: JSON of what it recovered" ok \
	"$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print("ok" if len(d["traceEvents"]) > 1000 else len(d["traceEvents"]))' "$work/damaged.json" 2>&1)"
for cmd in "report" "timechart -o $work/none.svg" "convert --perfetto $work/none.json"; do
	"$ct" ${cmd%% *} "$work/no-such-capture" $(echo "$cmd" | cut -s -d' ' -f2-) > /dev/null 2> "$work/none.err"
	check "${cmd%% *} of a missing capture: exit status" 2 $?
	check "${cmd%% *} of a missing capture: one line" 1 "$(wc -l < "$work/none.err")"
done

echo "bt2-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
