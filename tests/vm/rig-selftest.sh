#!/bin/sh
# Prove the QEMU rig can fail: a failing guest program, a kernel splat
# and a hang must each fail run-vm.sh, and a passing program must pass.
#
#   rig-selftest.sh KERNEL INITRD ACCEL LOGDIR
set -u
kernel=$1 initrd=$2 accel=$3 logdir=$4
passed=0 failed=0

# expect NAME WANT_RC GREP_PATTERN [run-vm options]
expect() {
	name=$1 want=$2 pattern=$3
	shift 3
	out=$(tests/vm/run-vm.sh --kernel "$kernel" --initrd "$initrd" \
		--accel "$accel" --log-dir "$logdir" --run "$name" "$@" 2>&1)
	rc=$?
	if { [ "$want" -eq 0 ] && [ "$rc" -eq 0 ]; } ||
	   { [ "$want" -ne 0 ] && [ "$rc" -ne 0 ]; } &&
	   echo "$out" | grep -q -- "$pattern"; then
		echo "rig-selftest: ok: $name -> status $rc, '$pattern'"
		passed=$((passed + 1))
	else
		echo "rig-selftest: FAIL: $name: expected status ${want} and '$pattern', saw $rc:"
		echo "$out" | sed 's/^/    /' | tail -n 20
		failed=$((failed + 1))
	fi
}

expect rig-pass 0 "passed on"
expect rig-exit3 1 "exited with status 3"
expect rig-splat 1 "the kernel printed a splat"
expect rig-hang 1 "did not finish within 40s" --timeout 40
expect no-such-program 1 "exited with status 127"
echo "rig-selftest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
