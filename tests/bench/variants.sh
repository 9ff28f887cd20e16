#!/bin/sh
# What each of coretrace's per-record guarantees costs (issue 17). Builds
# coretrace once per variant, each the committed code (HEAD) with the
# patches tests/bench/variants/NAME.patch applied (a variant A+B applies
# A and B), and runs make bench's guest (tests/guest/bench-tracers) in one
# boot of KERNEL: untraced, minimal, coretrace and every variant as the
# tracer coretrace-var-VARIANT, on the steady workloads and their quarter
# runs, so every row is the same boot. The table goes to OUT
# (tests/bench/summarize.py). The patches exist to be measured: no
# variant is ever installed, and one that no longer applies is an error.
#
#   variants.sh KERNEL LOGDIR OUT [VARIANT...] [-- NAME=VALUE...]
#
# make bench-variants runs it from the project root on Debian's stock
# kernel (BENCH_VARIANTS: the variants; BENCH_PARAMS: NAME=VALUE pairs for
# the guest, such as reps, pingpong, timersleep: tests/guest/bench-tracers).
#
# Default variants: no-attempted, no-pid-check, no-announce, the three
# together, and no-capture (records drained and counted, not written).
set -eu
[ $# -ge 3 ] || { echo "usage: variants.sh KERNEL LOGDIR OUT [VARIANT...] [-- NAME=VALUE...]" >&2; exit 2; }
kernel=$1 logdir=$2 out=$3
shift 3
variants=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	variants="$variants $1"
	shift
done
[ "${1:-}" = -- ] && shift
[ -n "$variants" ] ||
	variants="no-attempted no-pid-check no-announce no-attempted+no-pid-check+no-announce no-capture"
[ -r "$kernel" ] || { echo "variants: no kernel image '$kernel'" >&2; exit 1; }
[ -x coretrace ] || { echo "variants: build coretrace first (make coretrace)" >&2; exit 1; }

root=$(pwd)
bins=$logdir/bin
work=$(mktemp -d)
trap 'git -C "$root" worktree prune; rm -rf "$work"' EXIT
mkdir -p "$bins"
tracers=none,minimal,coretrace
for v in $variants; do
	tree=$work/$v
	git worktree add -q --detach "$tree" HEAD
	for p in $(echo "$v" | tr + ' '); do
		patch=$root/tests/bench/variants/$p.patch
		[ -r "$patch" ] || { echo "variants: no $patch" >&2; exit 1; }
		git -C "$tree" apply "$patch" ||
			{ echo "variants: $p.patch does not apply to HEAD" >&2; exit 1; }
	done
	echo "variants: building coretrace-var-$v"
	make -s -C "$tree" coretrace > "$logdir/build-$v.log" 2>&1 ||
		{ echo "variants: building $v failed ($logdir/build-$v.log)" >&2; exit 1; }
	cp "$tree/coretrace" "$bins/coretrace-var-$v"
	git worktree remove --force "$tree"
	tracers=$tracers,coretrace-var-$v
done

initramfs=$logdir/initramfs.cpio.gz
tests/vm/mkinitramfs.sh "$initramfs" ./coretrace tests/guest build/workloads \
	build/tools "$bins"
params="--param workloads=null,pingpong,pingpong-quarter,timersleep,timersleep-quarter --param tracers=$tracers"
for p in "$@"; do
	params="$params --param $p"
done
# shellcheck disable=SC2086
tests/vm/run-vm.sh --kernel "$kernel" --initrd "$initramfs" --accel "${ACCEL:-tcg,thread=single}" \
	--smp 1 --icount 0 --mem 2048 --timeout 7200 --log-dir "$logdir/vm" \
	--kind variants --run bench-tracers $params
python3 tests/bench/summarize.py "$out" "$(date -u '+%Y-%m-%d %H:%M UTC')" \
	"$(basename "$kernel")=$logdir/vm/artifacts"
echo "variants: wrote $out"
