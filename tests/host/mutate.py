#!/usr/bin/env python3
"""Mutation loop: flip bits in a good capture, then ask babeltrace2 and
coretrace report whether each mutant is a capture they can read.

  mutate.py [-n MUTANTS] [-s SEED] [-r RECORDS] [-k] MKCAPTURE CORETRACE WORKDIR

mkcapture writes one good capture (RECORDS records over 4 CPUs); each
mutant is a copy with one file changed: a stream file or the metadata
(one in four), with one bit flipped (half of them) or 2 to 16 bits flipped
at random places of that file. Both readers run on it with a time limit;
a reader accepts a mutant when it exits 0. Prints a table of the four
outcomes per file kind and every mutant the two disagree on, with how
to make it again (the seed and the mutant's number).

Exits 1 when babeltrace2 rejects a mutant that coretrace accepts (coretrace
would show a capture a strict reader refuses), when either reader crashes
or hangs, or when the good capture itself is not accepted by both. A mutant
coretrace rejects and babeltrace2 accepts is printed, not failed: coretrace
refuses, for example, a metadata whose layout is not the one it writes.
-k keeps the mutants that disagree in WORKDIR/mutate/kept.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys

TIME_LIMIT = 60


def run(cmd):
    """(exit status, stderr's first line); a signal or a hang is 'crash'/'hang'."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=TIME_LIMIT)
    except subprocess.TimeoutExpired:
        return "hang", f"no answer in {TIME_LIMIT} s"
    err = p.stderr.decode("utf-8", "replace").strip().splitlines()
    if p.returncode < 0:
        return "crash", f"signal {-p.returncode}"
    return p.returncode, err[0] if err else ""


def readers(ct, cap):
    bt = run(["babeltrace2", cap])
    rep = run([ct, "report", "--top", "-n", "0", cap])
    return bt, rep


def mutate(rng, good, out):
    """Copy @good to @out with one file's bits flipped; returns what was done."""
    shutil.copytree(good, out)
    files = sorted(f for f in os.listdir(out) if f.startswith("stream_"))
    name = "metadata" if rng.random() < 0.25 else rng.choice(files)
    path = os.path.join(out, name)
    with open(path, "rb") as f:
        data = bytearray(f.read())
    nbits = 1 if rng.random() < 0.5 else rng.randint(2, 16)
    flips = []
    for _ in range(nbits):
        at = rng.randrange(len(data))
        bit = rng.randrange(8)
        data[at] ^= 1 << bit
        flips.append(f"{at}.{bit}")
    with open(path, "wb") as f:
        f.write(data)
    return name, flips


def main():
    ap = argparse.ArgumentParser(description="bit-flip captures, babeltrace2 against coretrace")
    ap.add_argument("-n", type=int, default=400, help="mutants (default 400)")
    ap.add_argument("-s", type=int, default=13, help="seed (default 13)")
    ap.add_argument("-r", type=int, default=20000, help="records in the good capture")
    ap.add_argument("-k", action="store_true", help="keep the mutants that disagree")
    ap.add_argument("mkcapture")
    ap.add_argument("coretrace")
    ap.add_argument("workdir")
    a = ap.parse_args()
    if shutil.which("babeltrace2") is None:
        print("mutate: babeltrace2 is missing (tests/deps.sh installs it)")
        return 1

    work = os.path.join(a.workdir, "mutate")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "kept"))
    good = os.path.join(work, "good")
    subprocess.run([a.mkcapture, "-n", str(a.r), "-c", "4", "-s", str(a.s), good],
                   check=True, stdout=subprocess.DEVNULL)
    bt, rep = readers(a.coretrace, good)
    if bt[0] != 0 or rep[0] != 0:
        print(f"mutate: FAIL: the good capture: babeltrace2 {bt}, coretrace {rep}")
        return 1

    rng = random.Random(a.s)
    table = {}
    bad = 0
    for i in range(a.n):
        mutant = os.path.join(work, "m")
        shutil.rmtree(mutant, ignore_errors=True)
        name, flips = mutate(rng, good, mutant)
        kind = "metadata" if name == "metadata" else "stream"
        bt, rep = readers(a.coretrace, mutant)
        what = f"mutant {i} (-s {a.s}): {name} bits {' '.join(flips)}"
        for who, res in (("babeltrace2", bt), ("coretrace", rep)):
            if res[0] in ("crash", "hang"):
                print(f"mutate: FAIL: {who} {res[0]}: {res[1]}: {what}")
                bad += 1
        outcome = ("bt2 " + ("accepts" if bt[0] == 0 else "rejects"),
                   "coretrace " + ("accepts" if rep[0] == 0 else "rejects"))
        table[kind, outcome] = table.get((kind, outcome), 0) + 1
        if (bt[0] == 0) != (rep[0] == 0):
            if bt[0] != 0:
                print(f"mutate: FAIL: babeltrace2 rejects, coretrace accepts: {what}\n"
                      f"  babeltrace2: {bt[1]}")
                bad += 1
            else:
                print(f"mutate: coretrace rejects, babeltrace2 accepts: {what}\n"
                      f"  coretrace: {rep[1]}")
            if a.k:
                shutil.copytree(mutant, os.path.join(work, "kept", str(i)))
    shutil.rmtree(os.path.join(work, "m"), ignore_errors=True)

    print(f"mutate: {a.n} mutants of a {a.r}-record capture, seed {a.s}")
    for kind in ("stream", "metadata"):
        for outcome in sorted({o for k, o in table if k == kind}):
            print(f"  {kind:8} {outcome[0]:12} {outcome[1]:18} {table[kind, outcome]}")
    print(f"mutate: {a.n - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
