#!/bin/sh
# Boot a kernel with the test initramfs under QEMU, run one guest program
# (ct.run=NAME) and return its real exit status.
#
#   run-vm.sh --kernel BZIMAGE --initrd CPIO.GZ --run NAME
#             [--accel tcg|kvm] [--timeout SECONDS] [--log-dir DIR]
#             [--mem MB] [--smp N] [--kind KIND] [--show] [--quiet]
#             [--param NAME=VALUE]... [--icount SHIFT] [--module FILE.ko]...
#
# --kind tells the guest which kernel it runs (stock, control, padded or
# other); guest tests that expect a layout read it as $CT_KERNEL.
# Files a guest test sends with `artifact NAME FILE` (tests/guest/lib.sh)
# land in LOGDIR/artifacts/NAME. Each --param NAME=VALUE reaches the guest
# program as $CT_NAME (NAME in capitals). --icount SHIFT runs the guest
# on QEMU's instruction counter (-icount shift=SHIFT,sleep=off): its
# clock then advances 2^SHIFT ns per emulated instruction, not with the
# host's time, so timings repeat from one run to the next (benchmarks).
# Each --module FILE.ko (a test module built for this kernel) is packed
# into a cpio archive put before the initramfs, as /modules/FILE.ko: the
# kernel unpacks both; the guest tests insmod it.
#
# The guest writes "CORETRACE-RESULT rc=N" on its second serial port,
# which QEMU writes to a file; the console goes to another file. This
# script fails when:
#   - the guest never reported a result (crash, hang, panic: panic=-1 and
#     -no-reboot make QEMU exit instead of rebooting),
#   - the timeout it enforces itself expires,
#   - the console shows a kernel splat (BUG:, WARNING:, Oops, panic,
#     Call Trace:),
#   - the guest program exited non-zero.
set -u

kernel= initrd= run= accel=tcg,thread=single timeout=300 logdir=build/vm mem=1024 smp=2
show=0 quiet=0 kind=other params= icount= modules=
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift ;;
	--initrd) initrd=$2; shift ;;
	--run) run=$2; shift ;;
	--accel) accel=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--log-dir) logdir=$2; shift ;;
	--mem) mem=$2; shift ;;
	--smp) smp=$2; shift ;;
	--kind) kind=$2; shift ;;
	--param) params="$params ct.$2"; shift ;;
	--icount) icount="-icount shift=$2"; shift ;;
	--module) modules="$modules $2"; shift ;;
	--show) show=1 ;;
	--quiet) quiet=1 ;;
	*) echo "run-vm: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done

die() {
	echo "run-vm: $*" >&2
	exit 1
}

[ -n "$kernel" ] || die "no kernel image: install linux-image-amd64 or pass KERNEL=path/to/bzImage"
[ -r "$kernel" ] || die "cannot read kernel image '$kernel'"
[ -r "$initrd" ] || die "cannot read initramfs '$initrd'"
[ -n "$run" ] || die "--run NAME is required"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is missing (Debian package qemu-system-x86)"

mkdir -p "$logdir"
# the modules, as a second archive after the initramfs
if [ -n "$modules" ]; then
	stage=$(mktemp -d)
	mkdir -p "$stage/modules"
	for m in $modules; do
		[ -r "$m" ] || die "cannot read module '$m'"
		# a link (build/kernels/KIND.ct_freq.ko) by its target's name
		cp "$m" "$stage/modules/$(basename "$(readlink -f "$m")")"
	done
	# uncompressed and first, the layout early microcode uses
	(cd "$stage" && find modules -print | sort | cpio -o -H newc --quiet -R 0:0) \
		> "$logdir/initrd.cpio"
	cat "$initrd" >> "$logdir/initrd.cpio"
	rm -rf "$stage"
	initrd="$logdir/initrd.cpio"
fi
console="$logdir/$run.console.log"
result="$logdir/$run.result.txt"
rm -f "$console" "$result"
rm -rf "$logdir/artifacts"
: > "$console"

append="console=ttyS0 panic=-1 oops=panic ct.run=$run ct.kernel=$kind$params"
[ "$quiet" -eq 1 ] && append="$append loglevel=5"
case "$accel" in tcg*) cpu=max ;; *) cpu=host ;; esac

echo "run-vm: booting $(basename "$kernel") ($accel, $smp cpus, $mem MB), running '$run', timeout ${timeout}s"
tail_pid=
if [ "$show" -eq 1 ]; then
	tail -n +1 -f "$console" &
	tail_pid=$!
fi

start=$(date +%s)
timeout --kill-after=10 "$timeout" \
	qemu-system-x86_64 -accel "$accel" -cpu "$cpu" -smp "$smp" -m "$mem" \
	-kernel "$kernel" -initrd "$initrd" -append "$append" \
	-display none -monitor none -no-reboot \
	-serial "file:$console" -serial "file:$result" \
	-nic none $icount </dev/null
qemu_rc=$?
elapsed=$(( $(date +%s) - start ))
[ -n "$tail_pid" ] && { sleep 0.3; kill "$tail_pid" 2>/dev/null; }

# artifacts: base64 between marker lines on the result port
mkdir -p "$logdir/artifacts"
awk -v dir="$logdir/artifacts" '
	{ gsub(/\r/, "") }
	/^CORETRACE-ARTIFACT-BEGIN / { name = $2; file = dir "/" name ".b64"
		if (name ~ /\//) { sub_dir = file; sub(/\/[^\/]*$/, "", sub_dir)
			system("mkdir -p \"" sub_dir "\"") }
		printf "" > file; next }
	/^CORETRACE-ARTIFACT-END / { close(file); name = ""; next }
	name != "" { print >> file }' "$result" 2>/dev/null
find "$logdir/artifacts" -type f -name '*.b64' | while read -r b64; do
	base64 -d "$b64" > "${b64%.b64}" && rm -f "$b64"
done

failed=0
if [ "$qemu_rc" -eq 124 ] || [ "$qemu_rc" -eq 137 ]; then
	echo "run-vm: FAIL: the guest did not finish within ${timeout}s"
	failed=1
elif [ "$qemu_rc" -ne 0 ]; then
	echo "run-vm: FAIL: qemu exited with status $qemu_rc"
	failed=1
fi

splat=$(grep -n -E 'BUG:|WARNING:|Oops|Call Trace:|[Kk]ernel panic|(^|[^=])panic([^=]|$)' "$console" |
	grep -v 'Kernel command line' | head -n 5)
if [ -n "$splat" ]; then
	echo "run-vm: FAIL: the kernel printed a splat:"
	echo "$splat" | sed 's/^/    /'
	failed=1
fi

rc=$(sed -n 's/.*CORETRACE-RESULT rc=\([0-9]*\).*/\1/p' "$result" 2>/dev/null | tail -n 1)
if [ -z "$rc" ]; then
	echo "run-vm: FAIL: the guest never reported a result"
	failed=1
elif [ "$rc" -ne 0 ]; then
	echo "run-vm: FAIL: guest program '$run' exited with status $rc"
	failed=1
fi

if [ "$failed" -ne 0 ]; then
	if [ "$show" -eq 0 ]; then
		echo "run-vm: last lines of the console ($console):"
		tail -n 60 "$console" | sed 's/^/    /'
	fi
	exit 1
fi
[ "$show" -eq 0 ] && grep -E '^(=== |PASS |FAIL |  |guest tests on)' "$console"
echo "run-vm: '$run' passed on $(basename "$kernel") in ${elapsed}s (console: $console)"
exit 0
