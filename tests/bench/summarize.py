#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn make bench's guest runs into the results table (bench/results.md).

    summarize.py OUT.md DATE KIND=ARTIFACT_DIR...

Each ARTIFACT_DIR holds bench-runs.txt (one line per run:
"run KERNEL WORKLOAD TRACER REP ELAPSED_NS EVENTS LOST BYTES MAXRSS_KB
IDLE_MS [TRACER_CPU_NS [POST_NS [SETTLED_NS]]]": TRACER_CPU_NS "-" where
the guest kernel cannot tell a task's CPU time to the nanosecond; POST_NS
the CPU's busy time from the workload's end until the tracer had exited;
SETTLED_NS the same until a second later, the kernel's teardown of the
tracer included; older runs lack the last ones)
and bench-commands.txt (kernel, command lines, versions, ring sizes).
Per kernel, workload and tracer: medians over the repetitions; overhead
per event = (traced time - untraced time + what the tracer still did
after the workload) / events traced (recorded and lost), each traced run
paired with the untraced run of its repetition, median over repetitions.
"""
import statistics
import sys

TRACERS = ["none", "none-cg", "minimal", "coretrace", "coretrace-nocgn", "coretrace-ref",
           "coretrace-fr",
           "coretrace-trig",
           "coretrace-cg", "coretrace-cgx", "coretrace-serve", "coretrace-gk", "coretrace-g",
           "perf", "perf-g", "trace-cmd", "bpftrace",
           "lttng"]
# each traced run against its baseline's run of the same repetition:
# coretrace-cg's workload runs in a group, and so does none-cg's
BASELINE = {"coretrace-cg": "none-cg"}
# coretrace's modes; coretrace-cgx's events are the hits its filter rejected
CORETRACE_MODES = [t for t in TRACERS if t.startswith("coretrace")]
# the workload run a quarter as long, for the cost of one more event
QUARTER = "-quarter"


def read_runs(path):
    runs = {}
    try:
        f = open(path)
    except OSError as err:
        raise SystemExit(f"summarize: {path}: {err.strerror}")
    with f:
        try:
            lines = f.readlines()
        except UnicodeDecodeError:
            raise SystemExit(f"summarize: {path}: not text")
        for line in lines:
            words = line.split()
            if len(words) not in (11, 12, 13, 14) or words[0] != "run":
                raise SystemExit(f"summarize: {path}: bad line: {line!r}")
            _, kernel, workload, tracer, rep = words[:5]
            try:
                ns, events, lost, size, rss, idle_ms = map(int, words[5:11])
                rep = int(rep)
                cpu = int(words[11]) if len(words) >= 12 and words[11] != "-" else None
                post = int(words[12]) if len(words) >= 13 and words[12] != "-" else None
                settled = int(words[13]) if len(words) == 14 else None
            except ValueError:
                raise SystemExit(f"summarize: {path}: not a number in line: {line!r}")
            runs.setdefault((workload, tracer), []).append(
                dict(rep=rep, ns=ns, events=events, lost=lost,
                     bytes=size, rss=rss, idle_ms=idle_ms, cpu=cpu, post=post,
                     settled=settled))
            add_tracer(tracer)
    return runs


def add_tracer(tracer):
    """another build measured beside the others (coretrace-var-NAME of
    tests/bench/variants.sh): a row after the known tracers"""
    if tracer in TRACERS or not tracer.startswith("coretrace-var-"):
        return
    TRACERS.append(tracer)
    CORETRACE_MODES.append(tracer)


def median(values):
    return statistics.median(values)


def session_work(runs):
    """per tracer: what it did after the null workload (one round trip)
    beyond what the untraced run's shell did: its per-session work
    (finalizing, exiting), median over repetitions, and half the range;
    the same to a second after its exit (the kernel's teardown of it)
    where the runs tell it"""
    fixed = {}
    for key in ("post", "settled"):
        base = {r["rep"]: r[key] for r in runs.get(("null", "none"), [])
                if r[key] is not None}
        for (workload, tracer), rs in runs.items():
            if workload != "null" or tracer.startswith("none"):
                continue
            ns = [r[key] - base[r["rep"]] for r in rs
                  if r[key] is not None and r["rep"] in base]
            if not ns:
                continue
            f = fixed.setdefault(tracer, dict(events=median([r["events"] for r in rs])))
            if key == "post":
                f.update(ns=median(ns), spread=(max(ns) - min(ns)) / 2)
            else:
                f.update(settled=median(ns), settled_spread=(max(ns) - min(ns)) / 2)
    return {t: f for t, f in fixed.items() if "ns" in f}


def summarize_kernel(runs):
    """rows[workload][tracer] = dict of medians and totals"""
    rows = {}
    for (workload, tracer), rs in runs.items():
        rows.setdefault(workload, {})[tracer] = dict(
            reps=len(rs),
            ns=median([r["ns"] for r in rs]),
            events=median([r["events"] for r in rs]),
            lost=median([r["lost"] for r in rs]),
            lost_all=sum(r["lost"] for r in rs),
            bytes_per_event=median([r["bytes"] / r["events"]
                                    for r in rs if r["events"]] or [0]),
            rss=median([r["rss"] for r in rs]),
            idle_ms=max(r["idle_ms"] for r in rs))
        # the tracer's own processes' CPU time while the workload ran
        cpu = [r["cpu"] / (r["events"] + r["lost"]) for r in rs
               if r["cpu"] is not None and r["events"]]
        rows[workload][tracer]["cpu"] = median(cpu) if cpu else None
    fixed = session_work(runs)
    # overhead per event, paired: each traced run against the untraced
    # run of the same repetition (they ran minutes apart at most, so a
    # drift of the emulated machine's speed cancels), median over reps:
    # the workload's slowdown, and what the tracer still did after it
    # (the busy time from the workload's end until the tracer had exited,
    # less the untraced run's, which is the shell's own steps, and less
    # what the tracer does once per session whatever it records)
    for workload, by_tracer in rows.items():
        for tracer, row in by_tracer.items():
            name = BASELINE.get(tracer, "none")
            if (workload, name) not in runs:
                name = "none"
            base = {r["rep"]: r for r in runs[(workload, name)]}
            during, after, total = [], [], []
            for r in runs[(workload, tracer)]:
                if tracer.startswith("none") or not r["events"] or r["rep"] not in base:
                    continue
                b = base[r["rep"]]
                n = r["events"] + r["lost"]
                during.append((r["ns"] - b["ns"]) / n)
                if r["post"] is not None and b["post"] is not None:
                    after.append((r["post"] - b["post"]
                                  - fixed.get(tracer, {}).get("ns", 0)) / n)
                    total.append(during[-1] + after[-1])
            # all the work where the runs tell it, the slowdown otherwise
            per_rep = total if total and len(total) == len(during) else during
            row["all_work"] = per_rep is total
            row["overhead"] = median(per_rep) if per_rep else None
            row["spread"] = (max(per_rep) - min(per_rep)) / 2 if per_rep else None
            row["during"] = median(during) if during else None
            row["after"] = median(after) if after and row["all_work"] else None
            row["marginal"] = False
            marginal(runs, workload, tracer, name, row)
    rows.pop("null", None)
    for workload in list(rows):
        if workload.endswith(QUARTER):
            rows.pop(workload)
    return rows, fixed


def work_of(run, base):
    """(events, slowdown, after) of a traced run against its untraced one"""
    return (run["events"] + run["lost"], run["ns"] - base["ns"],
            run["post"] - base["post"])


def marginal(runs, workload, tracer, name, row):
    """
    The cost of one more event: the work of the full run less that of the
    run a quarter as long (same tracer, same repetition, same boot), over
    the events between them. Whatever a run costs once, however long it
    is (starting, tearing down, first touches), cancels; what the null
    workload's session leaves over does not.
    """
    quarter = workload + QUARTER
    if tracer.startswith("none") or (quarter, tracer) not in runs or \
            (quarter, name) not in runs:
        return
    full_base = {r["rep"]: r for r in runs[(workload, name)]}
    q_base = {r["rep"]: r for r in runs[(quarter, name)]}
    q_runs = {r["rep"]: r for r in runs[(quarter, tracer)]}
    per_rep, during, after, once = [], [], [], []
    for r in runs[(workload, tracer)]:
        rep = r["rep"]
        if rep not in full_base or rep not in q_base or rep not in q_runs:
            continue
        if None in (r["post"], full_base[rep]["post"], q_runs[rep]["post"],
                    q_base[rep]["post"]):
            return
        n, d, a = work_of(r, full_base[rep])
        qn, qd, qa = work_of(q_runs[rep], q_base[rep])
        if n <= qn:
            return
        per_rep.append((d + a - qd - qa) / (n - qn))
        during.append((d - qd) / (n - qn))
        after.append((a - qa) / (n - qn))
        once.append(d + a - per_rep[-1] * n)
    if not per_rep:
        return
    row.update(marginal=True, all_work=True, overhead=median(per_rep),
               spread=(max(per_rep) - min(per_rep)) / 2,
               during=median(during), after=median(after),
               once=median(once), whole=row["overhead"])


def session_table(fixed):
    """what each tracer does once per session, apart from the events"""
    if not fixed:
        return []
    settled = any("settled" in f for f in fixed.values())
    out = ["Per session (the null workload: one ping-pong round trip): what "
           "the tracer still did after it until it had exited, beyond the "
           "untraced run, in millions of instructions (emulated ms); the "
           "per-event overheads above leave it out."
           + (" Then with the second after its exit, in which the kernel "
              "tears down what it left (maps, buffers, programs freed from "
              "RCU callbacks and workqueues), a second of the kernel's own "
              "periodic work being in both." if settled else ""), ""]
    if settled:
        out += ["| tracer | to its exit | with the teardown | events recorded |",
                "|---|---:|---:|---:|"]
    else:
        out += ["| tracer | per session | events recorded |", "|---|---:|---:|"]
    for tracer in TRACERS:
        if tracer in fixed:
            f = fixed[tracer]
            cells = [f"{f['ns'] / 1e6:.1f} ± {f['spread'] / 1e6:.1f}"]
            if settled:
                cells.append(f"{f['settled'] / 1e6:.1f} ± {f['settled_spread'] / 1e6:.1f}"
                             if "settled" in f else "-")
            out.append(f"| {tracer} | {' | '.join(cells)} | {f['events']:.0f} |")
    return out + [""]


def fmt_ratio(row, perf):
    if row["overhead"] is None or perf["overhead"] in (None, 0):
        return "-"
    return f"{row['overhead'] / perf['overhead']:.2f}"


def fmt_cpu(row):
    return "-" if row["cpu"] is None else f"{row['cpu']:.0f}"


def fmt_ns(value):
    return "-" if value is None else f"{value:.0f}"


def fmt_once(row):
    return f"{row['once'] / 1e6:.2f}" if row.get("marginal") else "-"


def table(rows, workload):
    by_tracer = rows[workload]
    perf = by_tracer.get("perf")
    marg = any(r.get("marginal") for r in by_tracer.values())
    extra = "| whole run per event | once per run (M) " if marg else ""
    out = ["| tracer | runs | workload ms | overhead ns/event | during the workload "
           "| after it " + extra + "| vs perf "
           "| tracer CPU ns/event | events | lost | bytes/event on disk "
           "| tracer peak RSS KiB | idle ms |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
           + ("---:|---:|" if marg else "")]
    for tracer in TRACERS:
        row = by_tracer.get(tracer)
        if not row:
            continue
        if tracer.startswith("none"):
            label = "none (baseline)" if tracer == "none" else \
                "none-cg (coretrace-cg's baseline)"
            out.append(f"| {label} | {row['reps']} | {row['ns'] / 1e6:.1f} "
                       + "| - " * (11 if marg else 9) + f"| {row['idle_ms']} |")
            continue
        out.append(
            f"| {tracer} | {row['reps']} | {row['ns'] / 1e6:.1f} "
            f"| {row['overhead']:.0f} ± {row['spread']:.0f} "
            f"| {fmt_ns(row['during'])} | {fmt_ns(row['after'])} "
            + (f"| {fmt_ns(row.get('whole'))} | {fmt_once(row)} " if marg else "")
            + f"| {fmt_ratio(row, perf) if perf else '-'} "
            f"| {fmt_cpu(row)} "
            f"| {row['events']:.0f} | {row['lost']:.0f} "
            f"| {row['bytes_per_event']:.1f} | {row['rss']:.0f} "
            f"| {row['idle_ms']} |")
    return out


def goals(rows, workload):
    """the issue's goals, met or missed and by how much"""
    t = rows[workload]
    ct = t.get("coretrace")
    if not ct:
        return []
    lines = []
    minimal = t.get("minimal")
    if minimal and minimal["overhead"] and workload != "forkexec":
        ratio = ct["overhead"] / minimal["overhead"]
        lines.append(f"at most 1.3 x the minimal handlers': "
                     f"{'met' if ratio <= 1.3 else 'MISSED'} "
                     f"({ratio:.2f} x, {ct['overhead']:.0f} vs {minimal['overhead']:.0f} ns)")
    perf = t.get("perf")
    if perf and perf["overhead"]:
        ratio = ct["overhead"] / perf["overhead"]
        lines.append(f"overhead at most 0.4 of perf's: "
                     f"{'met' if ratio <= 0.4 else 'MISSED'} "
                     f"({ratio:.2f} x perf's)")
    for other in ("trace-cmd", "bpftrace", "lttng"):
        o = t.get(other)
        if o and o["overhead"] is not None:
            lines.append(f"below {other}'s: "
                         f"{'met' if ct['overhead'] < o['overhead'] else 'MISSED'} "
                         f"({ct['overhead']:.0f} vs {o['overhead']:.0f} ns)")
    def against(mode):
        """@mode's row and the noise between it and coretrace's, or None"""
        m = t.get(mode)
        if not m or m["overhead"] is None or ct["overhead"] is None:
            return None
        return m, max(ct["spread"], m["spread"])

    def within_noise(mode, what, ours_first):
        """the first of the pair no more than the noise above the other"""
        pair = against(mode)
        if pair:
            m, noise = pair
            a, b = (ct, m) if ours_first else (m, ct)
            lines.append(f"{what}: "
                         f"{'met' if a['overhead'] <= b['overhead'] + noise else 'MISSED'} "
                         f"({a['overhead']:.0f} vs {b['overhead']:.0f} ± {noise:.0f} ns)")

    for mode, name in (("coretrace-fr", "flight recorder"),
                       ("coretrace-trig", "flight recorder with a delay trigger")):
        pair = against(mode)
        if pair:
            m, noise = pair
            lines.append(f"{name} no worse than record -o: "
                         f"{'met' if m['overhead'] <= ct['overhead'] + noise else 'MISSED'} "
                         f"({m['overhead']:.0f} vs {ct['overhead']:.0f} ± {noise:.0f} ns)")
    pair = against("coretrace-nocgn")
    if pair:
        nocgn, noise = pair
        lines.append(f"cgroup attribution (record -o against --no-cgroup-names): "
                     f"{ct['overhead'] - nocgn['overhead']:+.0f} ± {noise:.0f} ns per event "
                     f"({ct['overhead']:.0f} vs {nocgn['overhead']:.0f})")
    within_noise("coretrace-ref", "no worse than the reference build (coretrace-ref) beyond the noise", True)
    pair = against("coretrace-serve")
    if pair:
        serve, noise = pair
        # the issue set no figure: the ratio, and the floor beside it
        # (coretrace-cgx: a handler that rejects every hit at once)
        cgx = t.get("coretrace-cgx")
        floor = (f"; a handler that returns at once, coretrace-cgx: {cgx['overhead']:.0f}"
                 if cgx and cgx["overhead"] is not None else "")
        lines.append(f"serve (in-kernel sums) against record -o: "
                     f"{serve['overhead'] / ct['overhead']:.2f} x "
                     f"({serve['overhead']:.0f} vs {ct['overhead']:.0f} ± {noise:.0f} ns per event{floor})")
    within_noise("coretrace-cg", "-G with the workload in the group no worse than record -o beyond the noise",
                 False)
    cgx = t.get("coretrace-cgx")
    if cgx and cgx["overhead"] is not None:
        lines.append(f"-G rejecting every hit: {cgx['overhead']:.0f} ± {cgx['spread']:.0f} "
                     f"ns per rejected hit (record -o: {ct['overhead']:.0f} per event)")
    lines.append(f"no event lost: {'met' if ct['lost_all'] == 0 else 'MISSED'} "
                 f"({ct['lost_all']} lost in all runs)")
    ref = t.get("coretrace-ref")
    if ref:
        # as printed: the metadata file, counted in the bytes, differs
        # between builds by a few hundred bytes
        lines.append(f"bytes per event no more than the reference build's: "
                     f"{'met' if round(ct['bytes_per_event'], 1) <= round(ref['bytes_per_event'], 1) else 'MISSED'} "
                     f"({ct['bytes_per_event']:.1f} vs {ref['bytes_per_event']:.1f})")
    # the other tracers (coretrace's always-on modes are coretrace too)
    # (the minimal handlers write nothing to disk)
    writers = CORETRACE_MODES + ["none", "none-cg", "minimal"]
    smallest = min((r["bytes_per_event"], name) for name, r in t.items()
                   if name == "coretrace" or name not in writers)
    lines.append(f"smallest on disk: "
                 f"{'met' if smallest[1] == 'coretrace' else 'MISSED'} "
                 f"({ct['bytes_per_event']:.1f} bytes/event; next "
                 + ", ".join(f"{name} {r['bytes_per_event']:.1f}"
                             for name, r in t.items()
                             if name not in writers) + ")")
    return lines


def headline(kernels):
    """one line per kernel and workload: overhead and bytes per event"""
    # the tracers that ran, in the table's order
    ran = {name for _, _, rows in kernels for t in rows.values() for name in t}
    others = [t for t in TRACERS if t in ran and t not in ("none", "none-cg", "coretrace")]
    out = ["## Summary", "",
           "Overhead per traced event in instructions (emulated ns; "
           "lower is better), coretrace's against perf's, and bytes per "
           "event on disk:", "",
           "| kernel | workload | coretrace | " + " | ".join(others)
           + " | coretrace / perf | bytes/event: coretrace | "
           + " | ".join(others) + " |",
           "|---|---|" + "---:|" * (2 * len(others) + 3)]
    for kind, _, rows in kernels:
        for workload in ("pingpong", "timersleep", "forkexec"):
            t = rows.get(workload)
            if not t or "coretrace" not in t:
                continue
            cells = [f"{t[n]['overhead']:.0f}" if n in t else "-"
                     for n in ["coretrace"] + others]
            size = [f"{t[n]['bytes_per_event']:.1f}" if n in t else "-"
                    for n in ["coretrace"] + others]
            out.append(f"| {kind} | {workload} | " + " | ".join(cells)
                       + f" | {fmt_ratio(t['coretrace'], t['perf']) if 'perf' in t else '-'} | "
                       + " | ".join(size) + " |")
    return out + [""]


def main():
    if len(sys.argv) < 4:
        raise SystemExit("usage: summarize.py OUT.md DATE KIND=DIR...")
    out_path, date = sys.argv[1], sys.argv[2]
    doc = [f"# Tracer overhead: coretrace (record -o, flight recorder), perf, trace-cmd, bpftrace, LTTng",
           "",
           f"Measured {date} by `make bench` (tests/bench/tracers.sh). "
           "One QEMU guest per kernel: TCG, one vCPU, on QEMU's "
           "instruction counter (`-icount shift=0`): the guest's clock "
           "advances 1 ns per emulated instruction, so a time below is a "
           "count of instructions the machine executed, the same from one "
           "run to the next, and not a time on real hardware (caches, "
           "memory and branch costs are not modelled). The workload and "
           "the tracer's user space share the CPU: the overhead is "
           "everything tracing costs the machine while the workload runs, "
           "probe and consumer. The workloads keep the CPU busy (idle "
           "column: the CPU's idle time during the workload, worst run).",
           "",
           "- workload ms: median over repetitions of the workload's own "
           "clock (CLOCK_MONOTONIC around its loop). The ping-pong pair runs "
           "as SCHED_BATCH (pingpong -b), so that every round is the same "
           "two blocking reads: under the default policy a round is either "
           "that or a wakeup preemption, which costs less, and the mix "
           "changes with the run's length and with the tracer.",
           "- overhead ns/event: what one more traced event (recorded or "
           "lost) costs, all the work counted. A run's work is, during the "
           "workload, its slowdown (traced time - untraced time), and after "
           "it, the CPU's busy time from the workload's end until the "
           "tracer had exited (draining, writing out, perf's build-id "
           "pass, LTTng's consumer daemon flushing its buffers; the CPU's "
           "idle time, from /proc/timer_list, is left out, so a tracer's "
           "waits do not count) less the same span of the untraced run "
           "(the shell's own steps); each traced run is paired with the "
           "untraced run of the same repetition. A second of sleep follows "
           "each run, so that the kernel's teardown of the tracer (maps, "
           "buffers and programs freed from RCU callbacks and workqueues) "
           "does not land in the next run; it is not counted here, being "
           "the same once per run however long (the session table below "
           "shows it), and counting it would also count that second's "
           "periodic work of the kernel, which lands in one run and not "
           "the next. Each workload also runs a "
           "quarter as long, right after it: the overhead is the "
           "difference between the two runs' work over the difference "
           "between their events, so that what a run costs once however "
           "long it is (starting, tearing down, first touches of memory) "
           "cancels instead of making a short run look dearer per event "
           "than a long one. The repetitions start their workloads at "
           "different moments of the tracers' timers (repetition r of R "
           "waits (r - 1) / R of 100 ms more), which on the instruction "
           "counter would otherwise be the same moment in every "
           "repetition: the spread shows what that moment moves. "
           "Median over repetitions, ± half the range; "
           "the parts during and after the workload are shown apart "
           "(medians of their own), then the whole run's work per event "
           "(less the null workload's session, below) and the work a run "
           "costs once (the full run's work less its events at the "
           "overhead, in millions of instructions). Where a table has no "
           "quarter runs the overhead is the whole run's.",
           "- events, lost: what the tracer recorded and what it "
           "reported lost, medians per run; events include what the "
           "tracer itself caused.",
           "- bytes/event on disk: the output file(s) / events recorded "
           "(median); for coretrace-fr and coretrace-trig (the flight "
           "recorder, without and with a scheduling-delay trigger that "
           "never fires) what is on disk is the last snapshot: its bytes "
           "per record it holds.",
           "- coretrace-nocgn: record -o --no-cgroup-names, without the "
           "announcements of each task's cgroup (what cgroup attribution "
           "costs is coretrace's overhead minus this one's).",
           "- coretrace-ref: the same record -o by another build of "
           "coretrace (make bench BENCH_REF=FILE), in the same boot.",
           "- coretrace-cg: record -o with -G naming a group the "
           "workload runs in, against none-cg (the workload in that group, "
           "untraced: a task in a group costs the kernel more than one in "
           "the root); coretrace-cgx: -G naming an empty group, "
           "so every hit is rejected in BPF: its events are the hits "
           "rejected (coretrace's filtered counts) and its overhead is "
           "what a rejected hit costs.",
           "- coretrace-serve: coretrace serve, the same tracepoint "
           "programs adding up in BPF maps (delay histograms, CPU time, "
           "switches, wakeups and migrations per cgroup, idle, interrupt "
           "and softirq time) with nothing sent to user space per event; "
           "its events are every hit of its own handlers (the scheduler's "
           "switch, wakeups and migrations, cpu_idle, interrupts and "
           "softirqs; not fork, exec and exit), it writes no file, and "
           "nothing scrapes it during the workload.",
           "- tracer CPU ns/event: the CPU time the tracer's own processes "
           "ran while the workload ran (the sum of their threads' "
           "/proc/PID/task/TID/schedstat, before and after it), per event, "
           "median: the part of the overhead that is the consumer; the rest "
           "is the probe and the kernel in the workload's time. \"-\": the "
           "kernel does not keep it (CONFIG_SCHED_INFO).",
           "- peak RSS: the largest process of the tracer's tree "
           "(busybox time -v, ru_maxrss); for LTTng the larger of its "
           "session and consumer daemons (VmHWM).",
           "- minimal: the least a classic-tracepoint design costs for "
           "these events (tests/tools/tpbtf all): per event a BPF handler "
           "that reserves coretrace's record, fills its fields and submits "
           "it, and a consumer that drains the ring and counts, writing "
           "nothing; coretrace's goal is at most 1.3 times its cost on the "
           "steady workloads.",
           "- lttng: Debian's lttng-tools and lttng-modules (built here "
           "against the stock kernel's packaged headers, tests/bench/"
           "lttng.sh), one session with the default kernel channel, the "
           "same six events, written to the guest's tmpfs; stopped with "
           "lttng stop and lttng destroy. Events and lost counts from "
           "babeltrace2 reading the trace.",
           ""]
    kernels = []
    for arg in sys.argv[3:]:
        if "=" not in arg:
            raise SystemExit(f"summarize: '{arg}' is not KIND=ARTIFACT_DIR")
        kind, directory = arg.split("=", 1)
        rows, fixed = summarize_kernel(read_runs(f"{directory}/bench-runs.txt"))
        kernels.append((kind, directory, rows, fixed))
    doc += headline([k[:3] for k in kernels])
    for kind, directory, rows, fixed in kernels:
        try:
            with open(f"{directory}/bench-commands.txt") as f:
                commands = f.read().rstrip("\n")
        except OSError as err:
            raise SystemExit(f"summarize: {err.filename}: {err.strerror}")
        ring = [line.split() for line in commands.splitlines()
                if line.split()[:1] == ["sched_switch"]]
        doc += [f"## Kernel: {kind}", ""]
        doc += [line.replace("tracer ", "", 1) + "." for line in commands.splitlines()
                if line.startswith("tracer ") and " left out: " in line]
        for workload in ("pingpong", "timersleep", "forkexec"):
            if workload not in rows:
                continue
            doc += [f"### {workload}", ""] + table(rows, workload) + [""]
            doc += ["Goals: " + "; ".join(goals(rows, workload)) + ".", ""]
        doc += session_table(fixed)
        if ring:
            doc += [f"coretrace's ring: {ring[0][-1]} bytes per sched_switch "
                    f"(a {ring[0][-2]}-byte record and the ring's 8-byte "
                    "header).", ""]
        doc += ["Commands and versions:", "", "```", commands, "```", ""]
    text = "\n".join(doc)
    try:
        with open(out_path, "w") as f:
            f.write(text)
    except OSError as err:
        raise SystemExit(f"summarize: writing {out_path}: {err.strerror}")
    print(text)


if __name__ == "__main__":
    main()
