#!/bin/sh
# Fuzz the capture reader with libFuzzer for SECONDS, starting from the
# kept corpus. Afterwards the new inputs are merged (minimized) back into
# tests/fuzz/corpus and any crashing input lands in tests/fuzz/crashers,
# where `make unit` replays both from then on. The last lines give the
# number of executions and the coverage reached.
#
#   tests/fuzz/run-fuzz.sh build/fuzz/fuzz_ctf_read 600
set -eu

bin=$1
seconds=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(dirname "$bin")/work
log=$(dirname "$bin")/fuzz.log

mkdir -p "$here/corpus" "$here/crashers"
rm -rf "$work"
mkdir -p "$work"
cp "$here"/corpus/* "$work"/ 2>/dev/null || true

echo "fuzzing the capture reader for ${seconds}s (log: $log)"
rc=0
# -max_len: a whole packet (64 KiB) plus room; one worker, two cores here
"$bin" -max_total_time="$seconds" -max_len=66000 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$here/crashers/" "$work" >"$log" 2>&1 || rc=$?

# keep only the inputs that add coverage
"$bin" -merge=1 -max_len=66000 "$here/corpus" "$work" >>"$log" 2>&1

grep -E '^#[0-9]+ *DONE|^Done|stat::number_of_executed_units|stat::peak_rss_mb' "$log" || true
echo "corpus: $(ls "$here/corpus" | wc -l) inputs; crashers: $(ls "$here/crashers" | wc -l)"

# line and branch coverage of the reader (and the decoders and printers
# it drives) over the kept corpus, with clang's source-based coverage
if command -v llvm-cov >/dev/null && command -v llvm-profdata >/dev/null; then
	root=$(cd "$here/../.." && pwd)
	cov=$(dirname "$bin")/cov
	mkdir -p "$cov"
	clang -std=c11 -D_DEFAULT_SOURCE -O1 -I"$root/bpf" -I"$root/user" \
		-fprofile-instr-generate -fcoverage-mapping -o "$cov/replay" \
		"$here/fuzz_ctf_read.c" "$here/replay.c" "$root"/user/capture/ctf_read.c \
		"$root"/user/capture/ctf.c "$root"/user/model/events.c "$root"/user/model/comm_cache.c \
		"$root"/user/model/ksyms.c "$root"/user/model/analysis.c "$root"/user/views/top.c \
		"$root"/user/model/cgroup.c
	LLVM_PROFILE_FILE="$cov/replay.profraw" "$cov/replay" "$here"/corpus/* >/dev/null
	llvm-profdata merge -o "$cov/replay.profdata" "$cov/replay.profraw"
	llvm-cov report "$cov/replay" -instr-profile="$cov/replay.profdata" \
		"$root/user/capture/ctf_read.c" "$root/user/model/events.c"
fi
if [ "$rc" -ne 0 ]; then
	echo "the fuzzer stopped with status $rc: see $log and tests/fuzz/crashers" >&2
	exit 1
fi
