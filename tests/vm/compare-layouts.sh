#!/bin/sh
# Compare the tracefs format files the control and padded guests sent
# (tests/guest/t_layout) for sched_switch, sched_wakeup, cpu_idle and
# irq_handler_entry.
#
#   compare-layouts.sh CONTROL_FORMATS PADDED_FORMATS
#
# For each event both kernels must list the same non-common fields, in
# the same order, with the same sizes. Their offsets must follow from C
# layout rules applied after a common header of 8 bytes (control) or 12
# (padded): each field at the next multiple of its alignment (its size for
# scalars, its element size for arrays, 4 for __data_loc). The same model
# has to reproduce both kernels, so it is checked, not assumed. Fields
# move by 4 bytes, or by 8 when an 8-byte field realigns (sched_switch's
# long prev_state and everything after it).
set -u
control=$1 padded=$2
[ -s "$control" ] || { echo "compare-layouts: missing $control" >&2; exit 1; }
[ -s "$padded" ] || { echo "compare-layouts: missing $padded" >&2; exit 1; }

awk '
function align_of(type, name, size,    count) {
	if (type ~ /__data_loc/)
		return 4
	if (match(name, /\[[0-9]+\]/)) {
		count = substr(name, RSTART + 1, RLENGTH - 2) + 0
		return count ? size / count : 1
	}
	return size > 8 ? 8 : size
}
function up(pos, a) { return a > 1 ? int((pos + a - 1) / a) * a : pos }
FNR == 1 { kernel = (NR == FNR) ? "control" : "padded" }
/^name: / { event = $2; next }
/^\tfield:/ {
	line = $0
	sub(/^\tfield:/, "", line)
	split(line, part, ";")
	decl = part[1]
	name = decl; sub(/.* /, "", name); sub(/^\*+/, "", name)
	type = decl; sub(/ [^ ]*$/, "", type)
	offset = part[2]; sub(/.*offset:/, "", offset)
	size = part[3]; sub(/.*size:/, "", size)
	key = kernel SUBSEP event
	if (name ~ /^common_/) {
		if (offset + size > hdr[key]) hdr[key] = offset + size
		next
	}
	n = ++nfields[key]
	fname[key, n] = name; ftype[key, n] = type
	foff[key, n] = offset + 0; fsize[key, n] = size + 0
	if (!(event in seen)) { seen[event] = 1; events[++nevents] = event }
}
END {
	bad = 0
	for (e = 1; e <= nevents; e++) {
		ev = events[e]; c = "control" SUBSEP ev; p = "padded" SUBSEP ev
		printf "%s: common header %d bytes on control, %d on padded\n", ev, hdr[c], hdr[p]
		if (hdr[p] != hdr[c] + 4) {
			printf "  FAIL: padded header should be 4 bytes longer\n"; bad++
		}
		if (nfields[c] != nfields[p] || nfields[c] == 0) {
			printf "  FAIL: %d fields on control, %d on padded\n", nfields[c], nfields[p]
			bad++; continue
		}
		cpos = hdr[c]; ppos = hdr[p]
		for (i = 1; i <= nfields[c]; i++) {
			if (fname[c, i] != fname[p, i] || fsize[c, i] != fsize[p, i]) {
				printf "  FAIL: field %d is %s/%d on control, %s/%d on padded\n",
					i, fname[c, i], fsize[c, i], fname[p, i], fsize[p, i]
				bad++; continue
			}
			a = align_of(ftype[c, i], fname[c, i], fsize[c, i])
			cpos = up(cpos, a); ppos = up(ppos, a)
			shift = foff[p, i] - foff[c, i]
			verdict = "ok"
			if (foff[c, i] != cpos || foff[p, i] != ppos) {
				verdict = sprintf("FAIL: layout rules give %d and %d", cpos, ppos)
				bad++
			} else if (shift != 4 && shift != 8) {
				verdict = "FAIL: moved by neither 4 nor 8"
				bad++
			}
			printf "  %-12s control %3d  padded %3d  (+%d)  %s\n",
				fname[c, i], foff[c, i], foff[p, i], shift, verdict
			cpos = foff[c, i] + fsize[c, i]; ppos = foff[p, i] + fsize[p, i]
		}
	}
	if (nevents < 4) { printf "FAIL: %d events compared, expected 4\n", nevents; bad++ }
	printf "compare-layouts: %d events, %d failures\n", nevents, bad
	exit bad > 0
}' "$control" "$padded"
