#!/bin/sh
# The verifier matrix: instructions each program made the verifier walk,
# per kernel, from the `coretrace check --json` each guest sent. Writes
# OUT.csv, prints it, and fails when a program was not loaded on a kernel
# or its count grew more than 20% over tests/verifier-baseline.csv.
#
#   verifier-matrix.sh OUT.csv BASELINE.csv KIND=CHECK.json...
set -u
out=$1 baseline=$2
shift 2

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for pair in "$@"; do
	kind=${pair%%=*} json=${pair#*=}
	[ -s "$json" ] || { echo "verifier-matrix: no check output for $kind ($json)" >&2; exit 1; }
	grep -o '"program":"[^"]*","tracepoint":"[^"]*","present":[a-z]*,"loaded":[a-z]*,"verified_insns":[0-9]*' "$json" |
		sed 's/"program":"\([^"]*\)".*"present":\([a-z]*\),"loaded":\([a-z]*\),"verified_insns":\([0-9]*\)/\1 \2 \3 \4/' |
		awk -v k="$kind" '{ print k, $0 }' >> "$tmp"
done

awk -v out="$out" -v baseline="$baseline" '
BEGIN {
	while ((getline line < baseline) > 0) {
		if (line ~ /^program,/) { nb = split(line, bh, ","); continue }
		split(line, f, ",")
		for (i = 2; i <= nb; i++) base[f[1], bh[i]] = f[i]
	}
}
{
	kind = $1; prog = $2
	if (!(kind in seenk)) { seenk[kind] = 1; kinds[++nk] = kind }
	if (!(prog in seenp)) { seenp[prog] = 1; progs[++np] = prog }
	present[prog, kind] = $3; loaded[prog, kind] = $4; insns[prog, kind] = $5
}
END {
	header = "program"
	for (k = 1; k <= nk; k++) header = header "," kinds[k]
	print header > out; print header
	bad = 0
	for (p = 1; p <= np; p++) {
		row = progs[p]
		for (k = 1; k <= nk; k++) {
			key = progs[p] SUBSEP kinds[k]
			row = row "," insns[key]
			if (present[key] != "true" || loaded[key] != "true") {
				printf "verifier-matrix: FAIL: %s not loaded on %s\n", progs[p], kinds[k]
				bad++
			} else if ((key in base) && base[key] > 0 && insns[key] > base[key] * 1.2) {
				printf "verifier-matrix: FAIL: %s on %s verified %d instructions, baseline %d (+%d%%)\n",
					progs[p], kinds[k], insns[key], base[key],
					(insns[key] - base[key]) * 100 / base[key]
				bad++
			} else if (!(key in base)) {
				printf "verifier-matrix: FAIL: no baseline for %s on %s (add it to the baseline table)\n", progs[p], kinds[k]
				bad++
			}
		}
		print row > out; print row
	}
	printf "verifier-matrix: %d programs x %d kernels, %d failures\n", np, nk, bad
	exit bad > 0
}' "$tmp"
