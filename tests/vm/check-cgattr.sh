#!/bin/sh
# t_cgattr's capture read by babeltrace2: the groups are named
# (coretrace_cgroup_name), each workload's group is announced
# (coretrace_task_cgroup), and the mover's move to ct-m2 is stamped
# between the two clock readings the mover took around its own write to
# cgroup.procs (CLOCK_MONOTONIC, the clock of the capture's cycles).
#
#   check-cgattr.sh ARTIFACT_DIR
set -u
art=$1
dir=$art/cgattr/capture
failed=0 passed=0
command -v babeltrace2 >/dev/null || { echo "check-cgattr: babeltrace2 is missing (make deps)"; exit 1; }
[ -s "$dir/metadata" ] && [ -s "$art/cgattr/pids" ] && [ -s "$art/cgattr/mover" ] ||
	{ echo "check-cgattr: FAIL: no cgattr capture in $art"; exit 1; }

check() {
	if [ "$2" = "$3" ]; then
		passed=$((passed + 1))
		echo "check-cgattr: ok: $1: $3"
	else
		failed=$((failed + 1))
		echo "check-cgattr: FAIL: $1: expected '$2', saw '$3'"
	fi
}

babeltrace2 --clock-cycles "$dir" > "$art/cgattr.bt.txt" 2> "$art/cgattr.bt.err"
check "babeltrace2 exit status and complaints" "0 0" "$? $(wc -l < "$art/cgattr.bt.err")"
read -r mv sp kid < "$art/cgattr/pids"
read -r from to <<EOT
$(sed -n 's/^spin: moved from=\([0-9]*\) to=\([0-9]*\) .*/\1 \2/p' "$art/cgattr/mover")
EOT
# id PATH: the group's id from its coretrace_cgroup_name event
id() {
	sed -n "s/.* coretrace_cgroup_name: .*cgroup_id = \([0-9]*\), level = [0-9]*, path = \"$(echo "$1" | sed 's,/,\\/,g')\" }$/\1/p" \
		"$art/cgattr.bt.txt" | head -n 1
}
m1=$(id /ct-m1) m2=$(id /ct-m2) p=$(id /ct-p) k=$(id /ct-p/kid)
check "the four groups named" 4 "$(for i in "$m1" "$m2" "$p" "$k"; do [ -n "$i" ] && echo; done | wc -l)"
# groups TID: the groups announced for TID, in order, as "ID@CYCLES"
groups() {
	sed -n "s/^\[0*\([0-9]*\)\] .* coretrace_task_cgroup: .*{ tid = $1, cgroup_id = \([0-9]*\) }$/\2@\1/p" \
		"$art/cgattr.bt.txt"
}
check "ct-p's spinner announced in ct-p" "$p" "$(groups "$sp" | sed 's/@.*//' | sort -u)"
check "the sleeper announced in ct-p/kid" "$k" "$(groups "$kid" | sed 's/@.*//' | sort -u)"
check "the mover announced in ct-m1, then in ct-m2" "$m1 $m2" \
	"$(groups "$mv" | sed 's/@.*//' | uniq | tr '\n' ' ' | sed 's/ $//')"
at=$(groups "$mv" | sed -n "s/^$m2@//p" | head -n 1)
echo "check-cgattr: the mover wrote to ct-m2's cgroup.procs from $from to $to ns; its move is stamped ${at:-?}"
check "the move stamped while the mover wrote cgroup.procs" 1 \
	"$(awk -v a="${at:-0}" -v f="${from:-1}" -v t="${to:-0}" 'BEGIN { print (a >= f && a <= t) }')"
echo "check-cgattr: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
