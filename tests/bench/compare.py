#!/usr/bin/env python3
"""Compare the per-event overheads of two make bench result files.

    compare.py A.md[,A2.md...] B.md[,B2.md...] [LABEL_A LABEL_B]

Reads the per-kernel tables that tests/bench/summarize.py writes (the
"overhead ns/event" column, "median ± half the range") and prints one
Markdown row per kernel, workload and tracer found on both sides: A, B,
A - B, and whether the difference is within the two spreads added up;
then how many rows are.
Meant for the same build measured in two configurations, e.g. short runs
against the full-length ones:

    make bench-tracers BENCH_OUT=build/bench-short.md \\
        BENCH_PARAMS="reps=3 pingpong=5000 timersleep=5000 forkexec=100"
    tests/bench/compare.py build/bench-short.md bench/results.md short full

A side may be several files, comma-separated: the same configuration in
several boots, each of which may have measured only some of the tracers.
A row's figure is then the mean of the medians of the files that hold
it, shown with their range, and its spread the larger of half that range
(how much a boot moves it) and the largest spread within one file.
"""
import re
import sys

OVERHEAD = re.compile(r"^(-?[0-9.]+) ± ([0-9.]+)$")


def read_overheads(path):
    """{(kernel, workload, tracer): (median, half range)} of one file."""
    found = {}
    kernel = workload = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## Kernel: "):
                kernel, workload = line.split()[2], None
                continue
            if line.startswith("### "):
                workload = line.split()[1]
                continue
            if not (kernel and workload and line.startswith("| ")):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 4:
                continue
            match = OVERHEAD.match(cells[3])
            if match:
                found[(kernel, workload, cells[0])] = (
                    float(match.group(1)), float(match.group(2)))
    return found


def read_side(paths):
    """{key: (figure, spread, [medians])}, each row from the files holding it."""
    tables = [read_overheads(path) for path in paths.split(",")]
    side = {}
    for key in set().union(*tables):
        held = [t[key] for t in tables if key in t]
        medians = [median for median, _ in held]
        spread = max((max(medians) - min(medians)) / 2,
                     max(half_range for _, half_range in held))
        side[key] = (sum(medians) / len(medians), spread, medians)
    return side


def shown(figure, spread, medians):
    if len(medians) == 1:
        return f"{figure:.0f} ± {spread:.0f}"
    return f"{figure:.0f} ± {spread:.0f} ({min(medians):.0f}-{max(medians):.0f})"


def main(argv):
    if len(argv) not in (3, 5):
        sys.stderr.write("usage: compare.py A.md[,A2.md...] B.md[,B2.md...] [LABEL_A LABEL_B]\n")
        return 2
    label_a, label_b = (argv[3], argv[4]) if len(argv) == 5 else ("A", "B")
    try:
        a, b = read_side(argv[1]), read_side(argv[2])
    except OSError as err:
        sys.stderr.write(f"compare.py: {err.filename}: {err.strerror}\n")
        return 1
    except UnicodeDecodeError:
        sys.stderr.write("compare.py: a file is not UTF-8 text, not a table summarize.py wrote\n")
        return 1
    common = sorted(set(a) & set(b))
    if not common:
        sys.stderr.write("compare.py: the two files have no overhead in common\n")
        return 1
    print(f"| kernel | workload | tracer | {label_a} | {label_b} | "
          f"{label_a} - {label_b} | within the spreads |")
    print("|---|---|---|---:|---:|---:|---|")
    agree = 0
    for key in common:
        (va, sa, ma), (vb, sb, mb) = a[key], b[key]
        diff = va - vb
        rel = f" ({diff / vb * 100:+.1f} %)" if vb else ""
        within = "yes" if abs(diff) <= sa + sb else "no"
        agree += within == "yes"
        print(f"| {key[0]} | {key[1]} | {key[2]} | {shown(va, sa, ma)} | "
              f"{shown(vb, sb, mb)} | {diff:+.0f}{rel} | {within} |")
    print(f"\n{agree} of {len(common)} rows within the spreads.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
