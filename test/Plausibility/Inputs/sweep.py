#!/usr/bin/env python3
"""Plausibility sweep: compiles CUDA sources with the FlipFlop plugin and
fails on any non-finite or implausible figure.

  sweep.py --compile "CLANG AND FLAGS" [--cuda-compile "CLANG AND FLAGS"]
           --out DIR [--max-us US] [--min-kernels K] [--flags "-O2"]... FILE...

For each FILE and each --flags set, runs COMPILE FLAGS FILE -S with a remark
record and a report directory (sources that do not include the test shim
ff_cuda.h use --cuda-compile, and are skipped without it; --skip-shim skips
those that do include it), then checks, per kernel:
  - every FF001 figure (TimeUs, EnergyMJ, Occupancy) is finite and positive;
  - a time above --max-us (default one hour) comes with warning FF014, or the
    kernel has FF013 (implausible, no recommendation) instead of FF001;
  - every valid configuration in the JSON report has finite time and energy,
    and a kernel with FF013 has no configuration to pick from.
A source that does not compile with the plugin fails the sweep, unless it
does not compile without the plugin either (an input meant for other flags,
e.g. a libm call at -O0 without libdevice): that is listed as invalid. Fails when
fewer than K kernels were checked, so it cannot pass vacuously.
"""
import argparse
import glob
import json
import math
import os
import re
import shlex
import subprocess
import sys


def remarks(path):
    """(Name, Function, {arg: value}) of each remark in a YAML record."""
    out = []
    if not os.path.exists(path):
        return out
    doc = None
    for line in open(path, errors="replace"):
        if line.startswith("--- !"):
            doc = {"Name": None, "Function": None, "Args": {}}
            out.append(doc)
            continue
        if doc is None:
            continue
        m = re.match(r"^(Name|Function):\s+(.*)$", line)
        if m:
            doc[m.group(1)] = m.group(2).strip().strip("'\"")
            continue
        m = re.match(r"^\s+- (\w+):\s+(.*)$", line)
        if m:
            doc["Args"][m.group(1)] = m.group(2).strip().strip("'\"")
    return out


def number(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compile", required=True)
    ap.add_argument("--cuda-compile")
    ap.add_argument("--skip-shim", action="store_true")
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-us", type=float, default=3.6e9)
    ap.add_argument("--min-kernels", type=int, default=1)
    ap.add_argument("--flags", action="append")  # --flags=-O2: the value starts with "-"
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    flag_sets = a.flags or ["-O2"]
    problems, kernels, compiled, skipped, invalid = [], 0, 0, 0, []
    for n, src in enumerate(a.files):
        compile_cmd = a.compile
        shim = "ff_cuda.h" in open(src, errors="replace").read()
        if not shim:
            compile_cmd = a.cuda_compile
        if not compile_cmd or (shim and a.skip_shim):
            skipped += 1
            continue
        for m, flags in enumerate(flag_sets):
            tag = "%d-%d" % (n, m)
            rep = os.path.join(a.out, tag)
            os.makedirs(rep, exist_ok=True)
            yaml = os.path.join(a.out, tag + ".yaml")
            cmd = (shlex.split(compile_cmd) + shlex.split(flags) +
                   [src, "-S", "-o", os.path.join(a.out, tag + ".s"),
                    "-fsave-optimization-record",
                    "-foptimization-record-file=" + yaml])
            env = dict(os.environ, FLIPFLOP_REPORT_DIR=rep)
            p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            where = "%s [%s]" % (os.path.basename(src), flags)
            if p.returncode != 0:
                plain = [x for x in cmd if not x.startswith("-fpass-plugin=")
                         and not x.startswith("-fplugin=")]
                q = subprocess.run(plain, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
                if q.returncode != 0:
                    invalid.append(where)
                    continue
                problems.append("%s: does not compile:\n%s" % (where, p.stdout[-2000:]))
                continue
            compiled += 1
            by_fn = {}
            for r in remarks(yaml):
                by_fn.setdefault(r["Function"], []).append(r)
            for fn, rs in sorted(by_fn.items(), key=lambda x: str(x[0])):
                names = [r["Name"] for r in rs]
                if "FF001" not in names and "FF013" not in names:
                    if "FF900" in names:
                        problems.append("%s %s: FF900 (internal problem)" % (where, fn))
                    continue
                kernels += 1
                for r in rs:
                    if r["Name"] != "FF001":
                        continue
                    t = number(r["Args"].get("TimeUs"))
                    e = number(r["Args"].get("EnergyMJ"))
                    o = number(r["Args"].get("Occupancy"))
                    for what, v in (("time", t), ("energy", e), ("occupancy", o)):
                        if not math.isfinite(v) or v <= 0:
                            problems.append("%s %s: FF001 %s is %r" % (where, fn, what, v))
                    if t > a.max_us and "FF014" not in names:
                        problems.append("%s %s: predicted %.4g us without a warning (FF014)"
                                        % (where, fn, t))
            for path in glob.glob(os.path.join(rep, "*.json")):
                for k in json.load(open(path))["kernels"]:
                    for c in k["configs"]:
                        if not c["valid"]:
                            continue
                        for key in ("time_s", "energy_j", "avg_power_w"):
                            v = c.get(key)
                            if v is None or not math.isfinite(v) or v <= 0:
                                problems.append("%s %s: config %s %s = %r" %
                                                (where, k["name"], c["block"], key, v))
    print("plausibility sweep: %d compiles (%d flag sets), %d sources skipped, "
          "%d kernels checked, %d problems"
          % (compiled, len(flag_sets), skipped, kernels, len(problems)))
    for i in invalid:
        print("  not valid input without the plugin either: " + i)
    for p in problems[:40]:
        print("  " + p)
    if problems:
        sys.exit(1)
    if kernels < a.min_kernels:
        sys.exit("only %d kernels checked, expected at least %d" % (kernels, a.min_kernels))


main()
