#!/usr/bin/env python3
"""The layers of user/: every file's includes go down, never up or across.

  layers-check.py [USER_DIR]     (default: user)
  layers-check.py --self-test    (a planted upward and a planted sideways
                                   include must each fail; a clean tree pass)

Layers, lowest first; a file may include headers of its own folder and of
the folders below it, and the BPF side's shared headers (bpf/ct_*.h, the
skeleton), nothing else of the project:

  base      the option engine, the version
  model     events, names, cgroups, analysis, the output interface, values
  loader    everything that talks to the kernel
  capture   the capture format: writer, reader, parts and rotation
  views     text, JSON, top, report, timechart, convert, metrics and HTTP
  commands  one file per command, and main

loader and capture stand side by side: neither includes the other.
Prints the figures (files, layers, includes, upward or across, the
biggest file) and exits 1 when an include goes up or across, or a file
sits outside the layers.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

LEVEL = {"base": 0, "model": 1, "loader": 2, "capture": 2, "views": 3,
         "commands": 4}
OUTSIDE = re.compile(r"^(ct_[a-z_]+\.h|coretrace\.skel\.h)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def check(top):
    files, includes, bad = 0, 0, []
    biggest = (0, "")
    for layer in sorted(os.listdir(top)):
        path = os.path.join(top, layer)
        if not os.path.isdir(path):
            if path.endswith((".c", ".h")):
                bad.append(f"{path}: outside every layer")
            continue
        if layer not in LEVEL:
            bad.append(f"{path}: a folder that is no layer")
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith((".c", ".h")):
                continue
            files += 1
            src = os.path.join(path, name)
            with open(src, encoding="utf-8") as f:
                text = f.read()
            lines = text.count("\n")
            biggest = max(biggest, (lines, src))
            for inc in INCLUDE.findall(text):
                includes += 1
                if "/" not in inc:
                    if not OUTSIDE.match(inc):
                        bad.append(f"{src}: includes \"{inc}\", which names no layer")
                    continue
                to = inc.split("/", 1)[0]
                if to not in LEVEL:
                    bad.append(f"{src}: includes \"{inc}\", which names no layer")
                elif to != layer and LEVEL[to] >= LEVEL[layer]:
                    way = "up" if LEVEL[to] > LEVEL[layer] else "across"
                    bad.append(f"{src}: includes \"{inc}\" ({layer} -> {to}: {way})")
    return files, includes, bad, biggest


def run(top):
    files, includes, bad, biggest = check(top)
    for b in bad:
        print(f"layers-check: {b}")
    print(f"layers-check: {files} files in {len(LEVEL)} layers, {includes} includes, "
          f"{len(bad)} up, across or outside; the biggest file {biggest[1]} ({biggest[0]} lines)")
    return 1 if bad or not files else 0


def self_test():
    passed = failed = 0
    me = os.path.abspath(__file__)
    for case, plant, want in [
        ("clean", None, 0),
        ("upward", ("model/a.c", '#include "views/b.h"\n'), 1),
        ("across", ("loader/a.c", '#include "capture/c.h"\n'), 1),
        ("bare", ("views/a.c", '#include "b.h"\n'), 1),
    ]:
        d = tempfile.mkdtemp()
        try:
            for layer in LEVEL:
                os.mkdir(os.path.join(d, layer))
            with open(os.path.join(d, "views", "b.h"), "w") as f:
                f.write('#include "model/m.h"\n#include "ct_abi.h"\n')
            with open(os.path.join(d, "model", "m.h"), "w") as f:
                f.write("\n")
            with open(os.path.join(d, "capture", "c.h"), "w") as f:
                f.write("\n")
            if plant:
                with open(os.path.join(d, plant[0]), "w") as f:
                    f.write(plant[1])
            rc = subprocess.run([sys.executable, me, d], capture_output=True).returncode
        finally:
            shutil.rmtree(d)
        if rc == want:
            passed += 1
        else:
            failed += 1
            print(f"layers-check: self-test {case}: exit {rc}, want {want}")
    print(f"layers-check self-test: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(run(sys.argv[1] if len(sys.argv) > 1 else "user"))
