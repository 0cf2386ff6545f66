#!/usr/bin/env python3
"""Fits the time model's unit-overlap exponent to the measured tuning data.

The issue time of a block is a soft maximum (p-norm) of the cycles each
functional unit needs and of the warp schedulers' cycles (docs/MODEL.md,
"Issue time"): p = 1 adds them (no overlap), p -> infinity takes the
largest (perfect overlap). p is the one constant of the time model fitted to
the training data (../shared/data/tuning/); every other constant comes from
datasheets or microbenchmarks.

For each candidate p this script runs the fidelity harness (PTX front end,
the same fixed sample for every p) with FLIPFLOP_FIT_UNIT_NORM=p and scores
it by the mean over (kernel, GPU) pairs of the median |log2(pred/meas)|
(absolute-time error; the ranking figures are printed beside it). Fits:

  (1) jointly on every pair;
  (2) leave-one-kernel-out: p chosen on the other kernel's pairs, scored on
      the held-out kernel's pairs: the figure that says how p generalises to
      a kernel it was not fitted on.

Usage: scripts/fit-time-model.py [--sample N] [--p 1,1.5,2,...]
       [--build DIR] [--keep DIR]
Standard library only; one harness run per p (about 3 minutes each for 300
configurations on 2 cores, from the harness's PTX cache).
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "bench", "fidelity", "fidelity.py")


def run_harness(p, sample, build, out):
    env = dict(os.environ, FLIPFLOP_FIT_UNIT_NORM=str(p))
    cmd = [sys.executable, HARNESS, "--sample", str(sample), "--frontends", "ptx",
           "--json", out]
    if build:
        cmd += ["--build", build]
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)


def pair_error(row):
    res = [abs(math.log2(s["predicted_ms"] / s["measured_ms"]))
           for s in row["samples"] if s.get("predicted_ms") and s.get("measured_ms")]
    return statistics.median(res)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--p", default="1,1.5,2,2.5,3,4,6")
    ap.add_argument("--build", default=None)
    ap.add_argument("--keep", default=None, help="keep each run's JSON here")
    a = ap.parse_args()
    ps = [float(x) for x in a.p.split(",")]
    keep = a.keep or tempfile.mkdtemp(prefix="fit-time-")
    os.makedirs(keep, exist_ok=True)
    err = {}    # p -> {(kernel, gpu): median |log2 ratio|}
    tau = {}
    for p in ps:
        rows = run_harness(p, a.sample, a.build, os.path.join(keep, "p%s.json" % p))
        err[p] = {(r["kernel"], r["gpu"]): pair_error(r) for r in rows}
        tau[p] = {(r["kernel"], r["gpu"]): r["flipflop"]["tau"] for r in rows}
        print("p=%-4g mean err %.3f  mean tau %.3f  | %s" % (
            p, statistics.mean(err[p].values()), statistics.mean(tau[p].values()),
            "  ".join("%s/%s %.2f(tau %.2f)" % (k[0][:5], k[1], e, tau[p][k])
                      for k, e in sorted(err[p].items()))), flush=True)
    pairs = sorted(err[ps[0]])
    kernels = sorted({k for k, _ in pairs})

    def score(p, keys):
        return statistics.mean(err[p][k] for k in keys)

    best = min(ps, key=lambda p: score(p, pairs))
    print("\njoint fit: p = %g, mean median |log2(pred/meas)| %.3f (x%.2f)" % (
        best, score(best, pairs), 2 ** score(best, pairs)))
    for held in kernels:
        train = [k for k in pairs if k[0] != held]
        test = [k for k in pairs if k[0] == held]
        p = min(ps, key=lambda q: score(q, train))
        print("leave out %-14s p = %-4g held-out error %.3f (x%.2f), "
              "joint-fit error on it %.3f" % (
                  held, p, score(p, test), 2 ** score(p, test), score(best, test)))
    print("\nrun files: %s" % keep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
