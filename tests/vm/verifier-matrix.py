#!/usr/bin/env python3
"""The verifier matrix: instructions each program made the verifier walk,
per kernel, from the `coretrace check --json` each guest sent. Writes
OUT.csv, prints it, and fails when a kernel's output holds no program, a
program of the baseline is missing from a kernel's output, a program was
not loaded, has no baseline, or its count grew more than 20% over the
baseline.

  verifier-matrix.py OUT.csv BASELINE.csv KIND=CHECK.json...
"""
import csv
import json
import sys

GROWTH = 1.2


def fail(msg):
    print(f"verifier-matrix: {msg}", file=sys.stderr)
    sys.exit(1)


def read_baseline(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        fail(f"cannot read the baseline {path}: {e.strerror}")
    if not rows or rows[0][:1] != ["program"] or len(rows) < 2:
        fail(f"{path} is not a baseline table (a 'program,KIND...' header and a row per program)")
    kinds = rows[0][1:]
    base = {}
    for row in rows[1:]:
        if len(row) != len(rows[0]):
            fail(f"{path}: row '{','.join(row)}' has {len(row)} columns, the header {len(rows[0])}")
        for kind, value in zip(kinds, row[1:]):
            base[row[0], kind] = int(value)
    return kinds, [row[0] for row in rows[1:]], base


def read_check(kind, path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        fail(f"no check output for {kind} ({path}: {e.strerror})")
    except ValueError as e:
        fail(f"{kind}'s check output {path} is not JSON: {e}")
    progs = doc.get("programs") if isinstance(doc, dict) else None
    if not isinstance(progs, list) or not progs:
        fail(f"{kind}'s check output {path} lists no program")
    seen = {}
    for p in progs:
        try:
            seen[p["program"]] = (p["present"] is True, p["loaded"] is True,
                                  int(p["verified_insns"]))
        except (KeyError, TypeError, ValueError):
            fail(f"{kind}'s check output {path}: a program without program, present, loaded or verified_insns")
    return seen


def main(argv):
    if len(argv) < 4 or any("=" not in a for a in argv[3:]):
        fail("usage: verifier-matrix.py OUT.csv BASELINE.csv KIND=CHECK.json...")
    out, baseline = argv[1], argv[2]
    base_kinds, base_progs, base = read_baseline(baseline)
    kinds, checks = [], {}
    for pair in argv[3:]:
        kind, path = pair.split("=", 1)
        if kind not in base_kinds:
            fail(f"the baseline {baseline} has no column for {kind}")
        kinds.append(kind)
        checks[kind] = read_check(kind, path)

    progs = list(base_progs)
    for kind in kinds:
        progs += [p for p in checks[kind] if p not in progs]
    problems = []
    rows = [["program"] + kinds]
    for prog in progs:
        row = [prog]
        for kind in kinds:
            got = checks[kind].get(prog)
            row.append("" if got is None else str(got[2]))
            if got is None:
                problems.append(f"{prog} is missing from {kind}'s check output")
            elif not (got[0] and got[1]):
                problems.append(f"{prog} not loaded on {kind}")
            elif (prog, kind) not in base:
                problems.append(f"no baseline for {prog} on {kind} (add it to the baseline table)")
            elif base[prog, kind] > 0 and got[2] > base[prog, kind] * GROWTH:
                b = base[prog, kind]
                problems.append(f"{prog} on {kind} verified {got[2]} instructions, baseline {b} (+{(got[2] - b) * 100 // b}%)")
        rows.append(row)
    try:
        with open(out, "w", newline="") as f:
            csv.writer(f, lineterminator="\n").writerows(rows)
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror}")
    for row in rows:
        print(",".join(row))
    for p in problems:
        print(f"verifier-matrix: FAIL: {p}")
    print(f"verifier-matrix: {len(progs)} programs x {len(kinds)} kernels, {len(problems)} failures")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
