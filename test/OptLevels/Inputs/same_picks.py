#!/usr/bin/env python3
"""Compares the picks of two sets of FlipFlop JSON reports (the plugin's
*.flipflop.json, e.g. the same sources compiled at -O0 and at -O2).

usage: same_picks.py [--require-lines] DIR_A DIR_B

For every kernel (source file, kernel name) and every named pick (fastest,
least_energy, ...), the configuration picked: block, min-blocks, power
limit and, where the report has them, the clock lever. Prints one line per
kernel and pick, marking differences with '!='; exits 1 when a kernel is
missing from one side or any pick differs. --require-lines also fails when
a kernel's line is 0 (no source location in the report).
"""
import glob
import json
import os
import sys

KEYS = ("block", "min_blocks_per_sm", "power_limit_w", "lever", "lever_value",
        "locked_clock_mhz")


def load(directory, require_lines, problems):
    out = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.flipflop.json"))):
        with open(path) as f:
            report = json.load(f)
        for k in report.get("kernels", []):
            key = (os.path.basename(k.get("file", "")), k.get("name", ""))
            if require_lines and not k.get("line"):
                problems.append("%s: kernel %s has no line" % (path, key[1]))
            picks = {}
            configs = k.get("configs", [])
            for name, index in sorted(k.get("picks", {}).items()):
                c = configs[index] if isinstance(index, int) and 0 <= index < len(configs) else {}
                picks[name] = tuple(json.dumps(c.get(x)) for x in KEYS if x in c)
            out[key] = picks
    return out


def main(argv):
    args = argv[1:]
    require_lines = "--require-lines" in args
    args = [a for a in args if a != "--require-lines"]
    if len(args) != 2:
        sys.exit("usage: same_picks.py [--require-lines] DIR_A DIR_B")
    problems = []
    a = load(args[0], require_lines, problems)
    b = load(args[1], require_lines, problems)
    if not a or not b:
        problems.append("no kernels in %s" % (args[0] if not a else args[1]))
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            problems.append("%s %s: only in %s" % (key[0], key[1], args[1] if key not in a else args[0]))
            continue
        for pick in sorted(set(a[key]) | set(b[key])):
            pa, pb = a[key].get(pick), b[key].get(pick)
            same = pa == pb
            print("%s %s %s: %s %s %s" % (key[0], key[1], pick, ",".join(pa or ()),
                                          "==" if same else "!=", ",".join(pb or ())))
            if not same:
                problems.append("%s %s: %s differs" % (key[0], key[1], pick))
    for p in problems:
        print("PROBLEM: " + p)
    print("%d kernels, %d problems" % (len(set(a) | set(b)), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
