#!/usr/bin/env python3
"""Compares the predicted time of a kernel whose loop runs N times in each
configuration with the same loop in a reference kernel that runs it N times.

  compare-configs.py REPORT_DIR KERNEL (--dim D | --fixed N)
                     (--ref N=DIR ... --ref-kernel NAME | --ref-template NAME)
                     [--max-ratio R] [--min-pairs K]

N is block[D] of each configuration (--dim) or a constant (--fixed). The
reference for N is kernel NAME in report directory DIR (--ref N=DIR: e.g. the
same kernel compiled with its bound given as N by FLIPFLOP_ARGS), or NAME<N>
in REPORT_DIR (--ref-template: the bound written as a template constant). For
every valid configuration of KERNEL with min-blocks 0, the reference's
configuration with a 1-D block of as many threads, the same power limit and
min-blocks 0 is compared. Fails when a time ratio is outside [1/R, R]
(default R = 2), when a figure is not finite, or when fewer than K pairs were
compared, so that it cannot pass vacuously.
"""
import argparse
import glob
import json
import math
import sys


def load(report_dir):
    kernels = []
    for path in sorted(glob.glob(report_dir + "/*.flipflop.json")):
        with open(path) as f:
            kernels += json.load(f)["kernels"]
    return kernels


def find(kernels, name):
    for k in kernels:
        if k["display_name"].startswith(name + "(") or \
           k["display_name"].startswith("void " + name + "("):
            return k
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report_dir")
    ap.add_argument("kernel")
    ap.add_argument("--dim", type=int)
    ap.add_argument("--fixed", type=int)
    ap.add_argument("--ref", action="append", default=[])
    ap.add_argument("--ref-kernel")
    ap.add_argument("--ref-template")
    ap.add_argument("--max-ratio", type=float, default=2.0)
    ap.add_argument("--min-pairs", type=int, default=1)
    a = ap.parse_args()
    kernels = load(a.report_dir)
    target = find(kernels, a.kernel)
    if target is None:
        sys.exit("no kernel %s in %s" % (a.kernel, a.report_dir))
    if not target["configs"]:
        sys.exit("%s has no configurations: %s" % (a.kernel, target["explanation"]))
    refs = {}
    for r in a.ref:
        n, d = r.split("=", 1)
        k = find(load(d), a.ref_kernel)
        if k is None:
            sys.exit("no kernel %s in %s" % (a.ref_kernel, d))
        refs[int(n)] = k
    if a.ref_template:
        for k in kernels:
            pre = "void %s<" % a.ref_template
            if k["display_name"].startswith(pre):
                refs[int(k["display_name"][len(pre):].split(">")[0])] = k

    def key(c):
        # A locked SM clock is a lever of its own beside the power limit.
        return (c["block"][0] * c["block"][1] * c["block"][2],
                c["power_limit_w"], c["min_blocks_per_sm"],
                c.get("locked_clock_mhz", 0))

    pairs, worst, bad = 0, 1.0, []
    for c in target["configs"]:
        if not c["valid"] or c["min_blocks_per_sm"] != 0:
            continue
        t = c["time_s"]
        if t is None or not math.isfinite(t) or t <= 0:
            bad.append("block %s: time %r" % (c["block"], t))
            continue
        n = a.fixed if a.fixed is not None else c["block"][a.dim]
        ref = refs.get(n)
        if ref is None:
            continue
        match = [r for r in ref["configs"] if r["valid"] and r["block"][1] == 1
                 and r["block"][2] == 1 and key(r) == key(c)]
        if not match:
            continue
        ratio = t / match[0]["time_s"]
        pairs += 1
        if max(ratio, 1 / ratio) > max(worst, 1 / worst):
            worst = ratio
        if not 1 / a.max_ratio <= ratio <= a.max_ratio:
            bad.append("block %s: %.4g s against %.4g s for N = %d (x%.3g)" %
                       (c["block"], t, match[0]["time_s"], n, ratio))
    print("%s: %d configurations compared, worst time ratio %.3g" %
          (a.kernel, pairs, worst))
    for b in bad[:10]:
        print("  " + b)
    if bad:
        sys.exit(1)
    if pairs < a.min_pairs:
        sys.exit("only %d pairs compared, expected at least %d" %
                 (pairs, a.min_pairs))


main()
