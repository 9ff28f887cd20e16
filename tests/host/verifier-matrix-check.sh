#!/bin/sh
# tests/vm/verifier-matrix.py on check outputs made here from the baseline:
# good ones pass, and each kind of broken one fails with its sentence.
#
#   verifier-matrix-check.sh [MATRIX]   (default tests/vm/verifier-matrix.py)
set -u
matrix=${1:-tests/vm/verifier-matrix.py}
baseline=tests/verifier-baseline.csv
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0 failed=0

# make_json KIND OUT [SED]: KIND's column of the baseline as check --json
# writes it (with an extra field between loaded and verified_insns), then
# SED applied to it
make_json() {
	awk -F, -v k="$1" '
	NR == 1 { for (i = 2; i <= NF; i++) if ($i == k) col = i; next }
	{ printf "%s{\"program\":\"%s\",\"tracepoint\":\"x:y\",\"present\":true,\"loaded\":true,\"load_attempts\":1,\"verified_insns\":%s,\"error\":null,\"fields\":[]}",
		n++ ? "," : "{\"ok\":true,\"problems\":0,\"programs\":[", $1, $col }
	END { print "]}" }' "$baseline" | sed "${3:-}" > "$2"
}

# expect WHAT RC PATTERN: the last run exited RC and printed PATTERN
expect() {
	if [ "$rc" -eq "$2" ] && grep -q -- "$3" "$dir/out"; then
		passed=$((passed + 1))
	else
		echo "verifier-matrix-check: FAIL: $1: exit $rc, want $2 and '$3':"
		sed 's/^/  /' "$dir/out"
		failed=$((failed + 1))
	fi
}

run() {
	"$matrix" "$dir/m.csv" "$baseline" "$@" > "$dir/out" 2>&1
	rc=$?
}

for k in stock control padded; do make_json $k "$dir/$k.json"; done
nprogs=$(($(wc -l < "$baseline") - 1))
run stock="$dir/stock.json" control="$dir/control.json" padded="$dir/padded.json"
expect "the baseline itself" 0 "$nprogs programs x 3 kernels, 0 failures"
[ "$(wc -l < "$dir/m.csv")" -eq $((nprogs + 1)) ] && passed=$((passed + 1)) ||
	{ echo "verifier-matrix-check: FAIL: m.csv has $(wc -l < "$dir/m.csv") lines"; failed=$((failed + 1)); }

make_json stock "$dir/b.json" 's/"programs":\[.*\]/"programs":[]/'
run stock="$dir/b.json"
expect "no program at all" 1 "lists no program"

make_json stock "$dir/b.json" 's/{"program":"handle_sched_wakeup",[^}]*},//'
run stock="$dir/b.json"
expect "a baseline program missing" 1 "handle_sched_wakeup is missing from stock"

make_json stock "$dir/b.json" 's/"program":"handle_sched_switch","tracepoint":"x:y","present":true,"loaded":true/&,"x":1/; s/"handle_task_rename","tracepoint":"x:y","present":true,"loaded":true/"handle_task_rename","tracepoint":"x:y","present":true,"loaded":false/'
run stock="$dir/b.json"
expect "a program not loaded" 1 "handle_task_rename not loaded on stock"

make_json stock "$dir/b.json" 's/"handle_sched_switch","tracepoint":"x:y","present":true,"loaded":true,"load_attempts":1,"verified_insns":[0-9]*/"handle_sched_switch","tracepoint":"x:y","present":true,"loaded":true,"load_attempts":1,"verified_insns":100000/'
run stock="$dir/b.json"
expect "a count grown past 20%" 1 "handle_sched_switch on stock verified 100000 instructions"

make_json stock "$dir/b.json" 's/"programs":\[/&{"program":"handle_new_one","present":true,"loaded":true,"verified_insns":5},/'
run stock="$dir/b.json"
expect "a program without a baseline" 1 "no baseline for handle_new_one on stock"

printf '{"ok":true,"programs":[' > "$dir/b.json"
run stock="$dir/b.json"
expect "cut JSON" 1 "is not JSON"

run stock="$dir/none.json"
expect "no check output" 1 "no check output for stock"

run other="$dir/stock.json"
expect "a kernel the baseline does not know" 1 "has no column for other"

echo "verifier-matrix-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
