#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The benchmark's arithmetic and its readers, on runs made up here.

    bench-check.py WORKDIR

tests/bench/summarize.py turns a guest's bench-runs.txt into the results
table: fed runs whose cost per event and cost per run are known, its
overhead (the cost of one more event), its parts during and after the
workload and its once-per-run cost must come out exactly; hostile lines
must end it with one sentence and a non-zero exit. tests/bench/compare.py
reads two tables back: the same checks. Closing line: "N passed, N failed".
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SUMMARIZE = os.path.join(HERE, "..", "bench", "summarize.py")
COMPARE = os.path.join(HERE, "..", "bench", "compare.py")
sys.path.insert(0, os.path.join(HERE, "..", "bench"))
import compare  # noqa: E402

passed = failed = 0


def check(what, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"bench-check: FAIL: {what}" + (f": {detail}" if detail else ""))


def run(*args):
    proc = subprocess.run([sys.executable, *args], capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


# A tracer whose every event costs PER_EVENT (DURING of it in the
# workload's time, the rest after it) and whose every run costs ONCE_D in
# the workload's time and ONCE_A after it, however long
PER_EVENT, DURING = 500, 380
ONCE_D, ONCE_A = 3_000_000, 4_000_000
SESSION = 2_500_000		# what it leaves after the null workload
# the second after a run (SETTLED_NS): the kernel's periodic work, which
# lands in some runs and not others, and a tracer's teardown after it
# exited; neither may move the cost per event
TEARDOWN = 1_200_000


def settled_of(rep, tracer, post, teardown):
    if not teardown:
        return ""
    periodic = 900_000 * (rep % 2) + 300_000 * (tracer != "none") * rep
    return f" {post + periodic + (TEARDOWN if tracer != 'none' else 0)}"


def runs_text(kernel, events_full, teardown=False):
    lines = []
    shell_post = 10_000_000
    for rep in (1, 2, 3):
        jitter = rep * 1000	# the untraced runs move; pairing cancels it
        post = shell_post + jitter
        lines.append(f"run {kernel} null none {rep} 200000 0 0 0 0 0 - {post}"
                     + settled_of(rep, "none", post, teardown))
        post = shell_post + jitter + SESSION
        lines.append(f"run {kernel} null coretrace {rep} 300000 300 0 9000 58000 0 - {post}"
                     + settled_of(rep, "coretrace", post, teardown))
        for workload, events in (("pingpong", events_full),
                                 ("pingpong-quarter", events_full // 4)):
            base_ns = events * 2000 + jitter
            post = shell_post + jitter
            lines.append(f"run {kernel} {workload} none {rep} {base_ns} 0 0 0 0 0 - {post}"
                         + settled_of(rep, "none", post, teardown))
            ns = base_ns + events * DURING + ONCE_D
            post = shell_post + jitter + events * (PER_EVENT - DURING) + ONCE_A
            lines.append(f"run {kernel} {workload} coretrace {rep} {ns} {events} 0 "
                         f"{events * 19} 58000 0 - {post}"
                         + settled_of(rep, "coretrace", post, teardown))
    return "\n".join(lines) + "\n"


def artifacts(work, kernel, text, commands="kernel test\ntracer coretrace: coretrace record\n"):
    directory = os.path.join(work, kernel)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "bench-runs.txt"), "w") as f:
        f.write(text)
    with open(os.path.join(directory, "bench-commands.txt"), "w") as f:
        f.write(commands)
    return directory


def row_of(md, kernel, workload, tracer):
    """the cells of TRACER's row in KERNEL's WORKLOAD table"""
    section = None
    for line in md.splitlines():
        if line.startswith("## Kernel: "):
            section = [line.split()[2], None]
        elif line.startswith("### ") and section:
            section[1] = line.split()[1]
        elif section == [kernel, workload] and line.startswith(f"| {tracer} |"):
            return [c.strip() for c in line.strip().strip("|").split("|")]
    return None


def check_summarize(work):
    full = artifacts(work, "full", runs_text("full", 40000, teardown=True))
    short = artifacts(work, "short", runs_text("short", 4000))
    out = os.path.join(work, "results.md")
    rc, _, err = run(SUMMARIZE, out, "today", f"full={full}", f"short={short}")
    check("summarize.py reads made-up runs", rc == 0, err.strip())
    if rc:
        return
    with open(out) as f:
        md = f.read()
    for kernel, events in (("full", 40000), ("short", 4000)):
        cells = row_of(md, kernel, "pingpong", "coretrace")
        check(f"{kernel}: coretrace has a pingpong row", cells is not None)
        if not cells:
            continue
        # tracer | runs | ms | overhead | during | after | whole | once | ...
        check(f"{kernel}: the cost of one more event, whatever the run's length",
              cells[3] == f"{PER_EVENT} ± 0", cells[3])
        check(f"{kernel}: its part during the workload", cells[4] == str(DURING), cells[4])
        check(f"{kernel}: its part after the workload",
              cells[5] == str(PER_EVENT - DURING), cells[5])
        once = (ONCE_D + ONCE_A) / 1e6
        check(f"{kernel}: what a run costs once", cells[7] == f"{once:.2f}", cells[7])
        whole = PER_EVENT + (ONCE_D + ONCE_A - SESSION) / events
        check(f"{kernel}: the whole run per event, less the null session",
              cells[6] == f"{whole:.0f}", cells[6])
    # the session table: to the exit, and with the second after it
    # (full's runs tell it: the teardown, and periodic work that moves)
    session = [line for line in md.splitlines() if line.startswith("| coretrace | ")
               and line.count("|") in (4, 5)]
    want_full = (f"| coretrace | {SESSION / 1e6:.1f} ± 0.0 | "
                 f"{(SESSION + TEARDOWN + 300_000 * 2) / 1e6:.1f} ± 0.3 | 300 |")
    check("summarize.py: the session to the tracer's exit and with the teardown",
          want_full in session, "\n".join(session))
    check("summarize.py: the session where the runs stop at the exit",
          f"| coretrace | {SESSION / 1e6:.1f} ± 0.0 | 300 |" in session, "\n".join(session))
    found = compare.read_overheads(out)
    check("compare.py reads summarize.py's table back",
          found.get(("full", "pingpong", "coretrace")) == (PER_EVENT, 0.0), str(found))
    rc, text, _ = run(COMPARE, out, out, "a", "b")
    check("compare.py: a table against itself differs by nothing",
          rc == 0 and "| full | pingpong | coretrace | 500 ± 0 | 500 ± 0 | +0 (+0.0 %) | yes |" in text,
          text)
    rows = sum(line.endswith(" | yes |") for line in text.splitlines())
    check("compare.py: its last line counts the rows within the spreads",
          rows > 0 and text.splitlines()[-1] == f"{rows} of {rows} rows within the spreads.",
          text.splitlines()[-1] if text else "")


def check_hostile(work):
    good = runs_text("k", 4000)
    cases = [
        ("a line of the wrong length", good + "run k pingpong none 1 2 3\n", "bad line"),
        ("a word that is no number", good.replace(" 58000 ", " 58k ", 1), "not a number"),
        ("a line that is not a run", "walk k pingpong none 1 2 3 4 5 6 7\n", "bad line"),
        ("a repetition that is no number", good.replace("null none 1 ", "null none one ", 1),
         "not a number"),
    ]
    for i, (what, text, said) in enumerate(cases):
        directory = artifacts(work, f"bad{i}", text)
        rc, _, err = run(SUMMARIZE, os.path.join(work, f"bad{i}.md"), "x", f"k={directory}")
        check(f"summarize.py refuses {what}",
              rc != 0 and said in err and "Traceback" not in err and len(err.strip().splitlines()) == 1,
              err.strip())
    directory = os.path.join(work, "binary")
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "bench-runs.txt"), "wb") as f:
        f.write(b"run \xff\xfe\x00 pingpong\n")
    rc, _, err = run(SUMMARIZE, os.path.join(work, "binary.md"), "x", f"k={directory}")
    check("summarize.py refuses runs that are not text",
          rc != 0 and "not text" in err and "Traceback" not in err, err.strip())
    rc, _, err = run(SUMMARIZE, os.path.join(work, "x.md"), "x", os.path.join(work, "nowhere"))
    check("summarize.py refuses an argument that is not KIND=DIR",
          rc != 0 and "not KIND=ARTIFACT_DIR" in err and "Traceback" not in err, err.strip())
    rc, _, err = run(SUMMARIZE, os.path.join(work, "x.md"), "x",
                     "k=" + os.path.join(work, "nowhere"))
    check("summarize.py says a missing directory's file is missing",
          rc != 0 and "No such file" in err and "Traceback" not in err, err.strip())
    directory = artifacts(work, "good", good)
    rc, _, err = run(SUMMARIZE, os.path.join(work, "no", "dir", "x.md"), "x", f"k={directory}")
    check("summarize.py reports a write it could not make",
          rc != 0 and "writing" in err and "Traceback" not in err, err.strip())

    a = os.path.join(work, "a.md")
    with open(a, "w") as f:
        f.write("## Kernel: k\n\n### pingpong\n\n"
                "| coretrace | 3 | 1.0 | 12 ± x | 1 |\n"	# no number: not a row
                "| perf | 3 | 1.0 | 99 ± 1 |\n"
                "| x |\n"
                "| lttng | 3 | 1.0 | -5 ± 2 | 1 |\n")
    found = compare.read_overheads(a)
    check("compare.py keeps rows whose overhead reads, and only those",
          found == {("k", "pingpong", "perf"): (99.0, 1.0),
                    ("k", "pingpong", "lttng"): (-5.0, 2.0)}, str(found))
    a2 = os.path.join(work, "a2.md")
    with open(a2, "w") as f:
        f.write("## Kernel: k\n\n### pingpong\n\n"
                "| perf | 3 | 1.0 | 107 ± 1 |\n")
    rc, text, _ = run(COMPARE, f"{a},{a2}", a, "boots", "one")
    check("compare.py: several boots are their medians' mean, spread by half their range",
          rc == 0 and "| k | pingpong | perf | 103 ± 4 (99-107) | 99 ± 1 | +4 (+4.0 %) | yes |"
          in text, text)
    check("compare.py: a row only one boot measured is that boot's",
          rc == 0 and "| k | pingpong | lttng | -5 ± 2 | -5 ± 2 |" in text
          and text.splitlines()[-1] == "2 of 2 rows within the spreads.", text)
    a3 = os.path.join(work, "a3.md")
    with open(a3, "w") as f:
        f.write("## Kernel: k\n\n### pingpong\n\n"
                "| perf | 3 | 1.0 | 120 ± 1 |\n"
                "| lttng | 3 | 1.0 | -4 ± 2 | 1 |\n")
    rc, text, _ = run(COMPARE, a3, a, "x", "a")
    check("compare.py: a difference beyond the two spreads is no, and counted",
          rc == 0 and "| k | pingpong | perf | 120 ± 1 | 99 ± 1 | +21 (+21.2 %) | no |" in text
          and "| k | pingpong | lttng | -4 ± 2 | -5 ± 2 | +1 (-20.0 %) | yes |" in text
          and text.splitlines()[-1] == "1 of 2 rows within the spreads.", text)
    rc, _, err = run(COMPARE, f"{a},{os.path.join(work, 'nowhere.md')}", a)
    check("compare.py: a missing file among boots is said",
          rc == 1 and "No such file" in err and "Traceback" not in err, err.strip())
    empty = os.path.join(work, "empty.md")
    open(empty, "w").close()
    rc, _, err = run(COMPARE, a, empty)
    check("compare.py: nothing in common is an error",
          rc == 1 and "nothing" not in err and "no overhead in common" in err, err.strip())
    rc, _, err = run(COMPARE, a, os.path.join(work, "nowhere.md"))
    check("compare.py: a missing file is said", rc == 1 and "No such file" in err, err.strip())
    rc, _, err = run(COMPARE, a)
    check("compare.py: a wrong command line gets its usage", rc == 2 and "usage" in err, err.strip())
    with open(os.path.join(work, "binary.md"), "wb") as f:
        f.write(b"## Kernel: \xff\xfe\n\x00\x01")
    rc, _, err = run(COMPARE, a, os.path.join(work, "binary.md"))
    check("compare.py: a file that is no text is refused in one sentence",
          rc != 0 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err.strip())


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: bench-check.py WORKDIR\n")
        return 2
    work = sys.argv[1]
    os.makedirs(work, exist_ok=True)
    check_summarize(work)
    check_hostile(work)
    print(f"bench-check: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
