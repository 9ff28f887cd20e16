#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a `coretrace convert --perfetto` file against the capture's raw
records (`coretrace report --format json`): valid JSON in the trace event
format; a complete event per run of a task on each CPU, never
overlapping on a CPU, each named after the task it ran; an instant per
wakeup; a counter per idle-state and frequency record; a name for every
thread and CPU; every thread under its own process or a cgroup's.

    check-perfetto.py TRACE.json RAW.jsonl [TID=NAME | TID@CGROUP ...]

TID@CGROUP: the thread is shown under the process of that cgroup (a
task that moved is named under each group it was in).
"""
import collections
import json
import sys


def main():
    trace = json.load(open(sys.argv[1]))
    raw = [json.loads(line) for line in open(sys.argv[2])]
    want_names = dict(arg.split("=", 1) for arg in sys.argv[3:] if "=" in arg)
    want_groups = [arg.split("@", 1) for arg in sys.argv[3:] if "@" in arg]
    events = trace["traceEvents"]
    passed = failed = 0

    def check(what, ok, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"check-perfetto: FAIL: {what} {detail}")

    by_ph = collections.Counter(e["ph"] for e in events)
    kinds = collections.Counter(r["event"] for r in raw)
    check("every event has a known phase", set(by_ph) <= set("XiCM"), by_ph)
    check("an instant per wakeup",
          by_ph["i"] == kinds["sched_wakeup"] + kinds["sched_wakeup_new"],
          f'{by_ph["i"]} != {kinds["sched_wakeup"] + kinds["sched_wakeup_new"]}')
    check("a counter per idle-state and frequency record",
          by_ph["C"] == kinds["cpu_idle"] + kinds["cpu_frequency"])

    # runs: from each switch to the next on its CPU, for a non-idle next
    switches = [r for r in raw if r["event"] == "sched_switch"]
    last = max(r["ts"] for r in switches)
    runs = []
    open_run = {}
    for r in switches:
        cpu = r["cpu"]
        if cpu in open_run:
            runs.append((cpu, *open_run.pop(cpu), r["ts"]))
        if r["next_pid"]:
            open_run[cpu] = (r["next_pid"], r["next_comm"], r["ts"])
    for cpu, (tid, comm, since) in open_run.items():
        runs.append((cpu, tid, comm, since, last))
    slices = [e for e in events if e["ph"] == "X"]
    check("a complete event per run of a task", len(slices) == len(runs),
          f"{len(slices)} != {len(runs)}")
    got = sorted((e["tid"], e["args"]["tid"], round(e["ts"] * 1000),
                  round((e["ts"] + e["dur"]) * 1000)) for e in slices)
    want = sorted((cpu, tid, since, end) for cpu, tid, _, since, end in runs)
    check("runs: CPU, task, start and end to the nanosecond", got == want)
    overlaps = 0
    per_cpu = collections.defaultdict(list)
    for e in slices:
        per_cpu[e["tid"]].append((e["ts"], e["ts"] + e["dur"]))
    for spans in per_cpu.values():
        spans.sort()
        overlaps += sum(1 for a, b in zip(spans, spans[1:]) if b[0] < a[1] - 1e-3)
    check("no two runs overlap on a CPU", overlaps == 0, overlaps)

    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    cpus = {r["cpu"] for r in raw}
    check("a named track per CPU",
          all(any(n == f"CPU {c}" for n in names.values()) for c in cpus))
    tid_names = collections.defaultdict(set)
    for (pid, tid), name in names.items():
        tid_names[tid].add(name)
    for tid, name in want_names.items():
        check(f"thread {tid} is named {name}", name in tid_names[int(tid)],
              tid_names[int(tid)])
    processes = {e["pid"]: e["args"]["name"] for e in events
                 if e["ph"] == "M" and e["name"] == "process_name"}
    cpus_pid = next(p for p, n in processes.items() if n == "CPUs")
    strays = [(pid, tid) for pid, tid in names if pid != cpus_pid and pid != tid
              and not processes.get(pid, "").startswith("cgroup ")]
    check("every thread under its own process or a cgroup's", not strays,
          strays[:5])
    unnamed = {(e["pid"], e["tid"]) for e in events if e["ph"] == "i"} - set(names)
    check("every instant on a named thread", not unnamed, sorted(unnamed)[:5])
    for tid, group in want_groups:
        pids = [pid for pid, t in names if t == int(tid)]
        check(f"thread {tid} under cgroup {group}",
              any(processes.get(pid) == f"cgroup {group}" for pid in pids),
              [processes.get(pid) for pid in pids])
    print(f"check-perfetto: {len(events)} trace events; {passed} passed, {failed} failed")
    return failed != 0


if __name__ == "__main__":
    sys.exit(main())
