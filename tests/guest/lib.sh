# Helpers for guest tests; source it. Every check prints what it expected
# and what it saw when it fails.

# A test may set FAIL_HOOK to a command that prints what would explain a
# failure (the inputs of the check); fail runs it once, then exits.
fail() {
	echo "  FAILED: $*"
	if [ -n "${FAIL_HOOK:-}" ]; then
		hook=$FAIL_HOOK
		FAIL_HOOK=
		$hook
	fi
	exit 1
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', saw '$3'"
	echo "  ok: $1 = $3"
}

# expect_ge WHAT MINIMUM ACTUAL
expect_ge() {
	[ "$3" -ge "$2" ] 2>/dev/null || fail "$1: expected at least $2, saw '$3'"
	echo "  ok: $1 = $3 (>= $2)"
}

# expect_workload WHAT COUNT ACTUAL [exact]: ACTUAL events recorded of a
# workload that counted COUNT itself: at least COUNT (exactly COUNT with
# "exact") less a few the kernel may have skipped. A classic tracepoint
# runs none of its BPF programs when it fires while a BPF program or a BPF
# map call is active on that CPU (trace_call_bpf), and before Linux 6.7
# nothing counts such a hit (999 of a sleeper's 1000 wakeups were recorded
# while bpftool dumped a map on its CPU). Every recording misses the same
# hits, so checks of one recording against another stay exact; a
# workload's own count allows 2 + 1 % of it.
expect_workload() {
	slack=$((2 + $2 / 100))
	most=$3 bound="at least"
	[ "${4:-}" = exact ] && most=$2 bound=exactly
	if ! [ "$3" -ge $(($2 - slack)) ] 2>/dev/null || [ "$3" -gt "$most" ]; then
		fail "$1: expected $bound $2 (or up to $slack fewer, skipped by the kernel), saw '$3'"
	fi
	if [ "$3" -ge "$2" ]; then
		echo "  ok: $1 = $3 ($bound $2)"
	else
		echo "  ok: $1 = $3 ($(($2 - $3)) short of $2: hits the kernel skipped, counted by nothing)"
	fi
}

# The workloads pin themselves to CPU 0; coretrace runs on the last CPU
# (the same one on a single-CPU guest).
CT_CPU=$(( $(nproc) - 1 ))

# start_record OUT ERR [coretrace record options]: start coretrace record
# in the background on CT_CPU and wait until its programs are attached.
# Sets CT_PID.
start_record() {
	out=$1 err=$2
	shift 2
	# fresh files: the shell may look at $err before the background
	# coretrace has truncated it, and see an earlier run's start line
	rm -f "$out" "$err"
	taskset -c $CT_CPU coretrace record "$@" > "$out" 2> "$err" &
	CT_PID=$!
	i=0
	while ! grep -q '^coretrace: tracing' "$err" 2>/dev/null; do
		if ! kill -0 "$CT_PID" 2>/dev/null; then
			cat "$err"
			fail "coretrace record exited before it started tracing"
		fi
		i=$((i + 1))
		[ $i -le 600 ] || fail "coretrace record did not start within 60 s"
		sleep 0.1
	done
}

# stop_record SIGNAL: stop CT_PID with SIGNAL and wait; sets CT_RC.
stop_record() {
	kill -s "$1" "$CT_PID"
	wait "$CT_PID"
	CT_RC=$?
}

# summary_field ERR WORD: the number before WORD in the summary line
# "coretrace: N records received, M lost"
summary_field() {
	sed -n "s/^coretrace: \([0-9]*\) records received, \([0-9]*\) lost$/\1 \2/p" "$1" |
		awk -v w="$2" '{ print (w == "received") ? $1 : $2 }'
}

# announced ERR [groups|tasks]: what user space announced when tracing
# began ("N groups and M tasks' groups announced ..."): both added, or one
announced() {
	sed -n "s/^coretrace: \([0-9]*\) groups and \([0-9]*\) tasks' groups announced .*/\1 \2/p" "$1" |
		awk -v w="${2:-}" '{ g = $1; t = $2 } END { print (w == "groups") ? g + 0 : (w == "tasks") ? t + 0 : g + t }'
}

# artifact NAME FILE: send FILE to the host, where run-vm.sh writes it to
# LOGDIR/artifacts/NAME.
artifact() {
	{
		echo "CORETRACE-ARTIFACT-BEGIN $1"
		base64 "$2"
		echo "CORETRACE-ARTIFACT-END $1"
	} > /dev/ttyS1
}

# pingpong_pids FILE: "PING PONG" from pingpong's last line in FILE
pingpong_pids() {
	sed -n 's/^pingpong: ping=\([0-9]*\) pong=\([0-9]*\) .*/\1 \2/p' "$1"
}

# count_pairs FILE PING PONG: lines "PREV NEXT" that switch between the two
count_pairs() {
	awk -v a="$2" -v b="$3" '($1 == a && $2 == b) || ($1 == b && $2 == a) { n++ }
		END { print n + 0 }' "$1"
}

# "NOW IDLE": CLOCK_MONOTONIC and the CPUs' idle time so far, both in ns,
# from /proc/timer_list (the tick code's idle_sleeptime and
# iowait_sleeptime, added up at each idle exit: exact, not sampled; the
# reader runs, so no CPU idles while it reads)
clock_idle() {
	awk '/^now at [0-9]+ nsecs/ { now = $3 }
	     $1 == ".idle_sleeptime" || $1 == ".iowait_sleeptime" { idle += $3 }
	     END { print now, idle + 0 }' /proc/timer_list
}
