#!/bin/sh
# make bench: boot each kernel with the benchmark initramfs (Debian's
# perf, trace-cmd and bpftrace inside, unchanged), run every workload
# under every tracer there (tests/guest/bench-tracers), then write the
# table of medians to OUT (tests/bench/summarize.py). The guest has one
# CPU and runs on QEMU's instruction counter: its clock counts emulated
# instructions, so timings repeat from run to run (with two vCPUs the
# guest hung bringing up the second one under -icount here).
#
#   tracers.sh INITRAMFS ACCEL LOGDIR OUT KIND=BZIMAGE... [-- NAME=VALUE...]
#
# NAME=VALUE pairs after -- go to the guest (reps, pingpong, timersleep,
# forkexec, workloads, tracers, events: see tests/guest/bench-tracers).
set -eu
initramfs=$1 accel=$2 logdir=$3 out=$4
shift 4
kernels=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	kernels="$kernels $1"
	shift
done
[ "${1:-}" = -- ] && shift
params=
for p in "$@"; do
	params="$params --param $p"
done

# the kernels boot side by side: on the instruction counter a guest's
# timings do not depend on what else the host runs
dirs='' pids=''
for k in $kernels; do
	kind=${k%%=*} image=${k#*=}
	[ -r "$image" ] || { echo "bench: no kernel image '$image' for $kind" >&2; exit 1; }
	mkdir -p "$logdir/$kind"
	# shellcheck disable=SC2086
	tests/vm/run-vm.sh --kernel "$image" --initrd "$initramfs" --accel "$accel" \
		--smp 1 --icount 0 --mem 2048 --timeout 7200 --log-dir "$logdir/$kind" \
		--kind "$kind" --run bench-tracers $params > "$logdir/$kind.log" 2>&1 &
	pids="$pids $!"
	dirs="$dirs $kind=$logdir/$kind/artifacts"
	echo "bench: $kind booting, log $logdir/$kind.log"
done
failed=0
for pid in $pids; do
	wait "$pid" || failed=1
done
for k in $kernels; do
	tail -n 1 "$logdir/${k%%=*}.log"
done
if [ "$failed" -ne 0 ]; then
	echo "bench: a guest failed; see the logs above" >&2
	exit 1
fi
# shellcheck disable=SC2086
python3 tests/bench/summarize.py "$out" "$(date -u '+%Y-%m-%d %H:%M UTC')" $dirs
