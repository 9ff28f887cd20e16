#!/bin/sh
# The capture t_stacks (record -g) sent, read on the host: babeltrace2
# reads it, stack events and all, and coretrace report names the frames
# of offcpu's child, a process that exited in the guest, from what the
# capture carries (the guest's files are not here).
#
#   check-stacks.sh ARTIFACT_DIR
set -u
art=$1
dir=$art/stacks
[ -s "$dir/metadata" ] || { echo "check-stacks: FAIL: no capture in $art"; exit 1; }
failed=0
fail() {
	echo "check-stacks: FAIL: $*"
	failed=1
}

babeltrace2 "$dir" > "$art/stacks.bt" 2> "$art/stacks.bt.err"
[ $? -eq 0 ] && [ ! -s "$art/stacks.bt.err" ] || fail "babeltrace2: $(head -n 5 "$art/stacks.bt.err")"
for ev in coretrace_callchain coretrace_kstack coretrace_ustack coretrace_module coretrace_usym; do
	n=$(grep -c " $ev: " "$art/stacks.bt")
	[ "$n" -gt 0 ] || fail "babeltrace2 shows no $ev event"
	echo "check-stacks: babeltrace2: $n $ev events"
done
grep -q ' coretrace_usym: .*name = "ct_exit_nap"' "$art/stacks.bt" ||
	fail "babeltrace2 shows no coretrace_usym naming ct_exit_nap"

./coretrace report "$dir" --offcpu > "$art/stacks.folded" 2> "$art/stacks.folded.err" ||
	fail "coretrace report --offcpu: $(cat "$art/stacks.folded.err")"
grep -Eq '^offcpu;.*;main;ct_exit_outer;ct_exit_nap;entry_SYSCALL_64[^;]*;.*;do_nanosleep;schedule;__schedule [0-9]+$' "$art/stacks.folded" ||
	fail "report on the host does not name the exited child's stack from the capture"
[ $failed -eq 0 ] && echo "check-stacks: ok: read by babeltrace2; the exited child named on the host from the capture alone"
exit $failed
