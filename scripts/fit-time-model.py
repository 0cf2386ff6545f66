#!/usr/bin/env python3
"""Fits the time model's three overlap exponents to the measured tuning data.

All are soft maxima (p-norms; p = 1 adds, p -> infinity takes the largest):

  unit:    the issue time of a block over the per-unit cycles and the
           schedulers' cycles, and, in a round, issue against the L2 port
           (docs/MODEL.md, "Issue time"; ModelConstants UnitOverlapNorm);
  queue:   the issue time's two queues, the schedulers' norm against the
           MIO's (docs/MODEL.md, "Issue time"; ModelConstants
           QueueOverlapNorm; 64 stands for the larger of the two);
  overlap: a round's throughput time against one warp's latency path
           (docs/MODEL.md, "Rounds"; ModelConstants OverlapNorm).

They are the only constants of the time model fitted to the training data
(../shared/data/tuning/); every other constant comes from datasheets or
microbenchmarks. For each candidate p of the exponent chosen with --which,
this script runs the fidelity harness (the PTX front end, or every front
end of --frontends; the same fixed sample for every p) with
FLIPFLOP_FIT_UNIT_NORM, _QUEUE_NORM or _OVERLAP_NORM = p and scores it two
ways: the absolute-time error (mean over (kernel, GPU, front end) pairs of
the median |log2(pred/meas)|) and the ranking (mean regret + mean shortlist
over the pairs; tau beside it). --objective picks the one the fit
minimises, among the candidates that keep every pair's tau at or above
--tau-floor (issue 14's target, 0.7; 0 turns the constraint off): a
candidate that wins the mean by losing one pair's ranking is not a fit.
Fits:

  (1) jointly on every pair;
  (2) leave-one-kernel-out: p chosen on the other kernel's pairs, scored on
      the held-out kernel's pairs: the figure that says how p generalises to
      a kernel it was not fitted on;
  (3) leave-one-GPU-out: p chosen on the pairs of the other GPUs, and the
      held-out GPU's pairs scored at that p (tau, regret, shortlist) beside
      the joint fit's: the figure that says what a GPU the fit never saw
      would get.

Usage: scripts/fit-time-model.py [--which unit|queue|overlap] [--objective
       error|ranking] [--sample N] [--p 1,1.5,2,...] [--build DIR]
       [--keep DIR [--reuse]] [--frontends ptx[,plugin]] [--tau-floor 0.7]
Standard library only; one harness run per p (about 5 minutes each for 300
configurations on 2 cores, from the harness's PTX cache; with the plugin
about 20 minutes more, as its cache is keyed by the override). --reuse
scores the runs an earlier call left in --keep (FILE names:
WHICH-pP[-FRONTENDS].json) without running the harness.
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


ENV = {"unit": "FLIPFLOP_FIT_UNIT_NORM", "queue": "FLIPFLOP_FIT_QUEUE_NORM",
       "overlap": "FLIPFLOP_FIT_OVERLAP_NORM"}


def run_harness(which, p, sample, build, out, frontends):
    env = dict(os.environ, **{ENV[which]: str(p)})
    cmd = [sys.executable, HARNESS, "--sample", str(sample), "--frontends", frontends,
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
    ap.add_argument("--which", choices=sorted(ENV), default="unit")
    ap.add_argument("--objective", choices=["error", "ranking"], default="error")
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--p", default="1,1.5,2,2.5,3,4,6")
    ap.add_argument("--build", default=None)
    ap.add_argument("--keep", default=None, help="keep each run's JSON here")
    ap.add_argument("--frontends", default="ptx",
                    help="front ends to score, comma-separated (ptx, plugin)")
    ap.add_argument("--tau-floor", type=float, default=0.7,
                    help="leave out candidates with a pair's tau below this")
    ap.add_argument("--reuse", action="store_true",
                    help="score the runs already in --keep instead of running them again")
    a = ap.parse_args()
    ps = [float(x) for x in a.p.split(",")]
    keep = a.keep or tempfile.mkdtemp(prefix="fit-time-")
    os.makedirs(keep, exist_ok=True)
    err = {}    # p -> {(kernel, gpu, front end): median |log2 ratio|}
    tau = {}
    figs = {}   # p -> {(kernel, gpu, front end): (regret, shortlist)}
    rank = {}   # p -> {(kernel, gpu, front end): regret + shortlist}
    for p in ps:
        name = "%s-p%s%s.json" % (a.which, p, "" if a.frontends == "ptx" else
                                  "-" + a.frontends.replace(",", "-"))
        path = os.path.join(keep, name)
        if a.reuse and os.path.exists(path):
            with open(path) as f:
                rows = json.load(f)
        else:
            rows = run_harness(a.which, p, a.sample, a.build, path, a.frontends)
        key = lambda r: (r["kernel"], r["gpu"], r["frontend"])
        err[p] = {key(r): pair_error(r) for r in rows}
        tau[p] = {key(r): r["flipflop"]["tau"] for r in rows}
        figs[p] = {key(r): (r["flipflop"]["regret"], r["flipflop"]["shortlist"])
                   for r in rows}
        rank[p] = {k: sum(v) for k, v in figs[p].items()}
        low = min(tau[p], key=tau[p].get)
        print("p=%-4g mean err %.3f  mean tau %.3f (lowest %.3f, %s)  mean regret+shortlist "
              "%.3f  | %s" % (
                  p, statistics.mean(err[p].values()), statistics.mean(tau[p].values()),
                  tau[p][low], "/".join(low), statistics.mean(rank[p].values()),
                  "  ".join("%s/%s/%s %.2f(tau %.2f)" % (k[0][:5], k[1], k[2], e, tau[p][k])
                            for k, e in sorted(err[p].items()))), flush=True)
    pairs = sorted(err[ps[0]])
    kernels = sorted({k[0] for k in pairs})

    table = err if a.objective == "error" else rank

    def score(p, keys):
        return statistics.mean(table[p][k] for k in keys)

    def admissible(keys):
        # Every candidate when none keeps the floor (said below).
        ok = [p for p in ps if min(tau[p][k] for k in keys) >= a.tau_floor]
        return ok or ps

    def fit(keys):
        return min(admissible(keys), key=lambda q: score(q, keys))

    cands = admissible(pairs)
    if not any(min(tau[p].values()) >= a.tau_floor for p in ps):
        print("\nno candidate keeps every tau at or above %g: fitting among all" % a.tau_floor)
    elif len(cands) < len(ps):
        print("\nleft out (a pair's tau below %g): %s" % (
            a.tau_floor, ", ".join("%g" % p for p in ps if p not in cands)))
    best = fit(pairs)
    print("\n%s exponent, objective %s" % (a.which, a.objective))
    print("joint fit: p = %g, objective %.3f (error x%.2f)" % (
        best, score(best, pairs), 2 ** statistics.mean(err[best].values())))
    for held in kernels:
        test = [k for k in pairs if k[0] == held]
        p = fit([k for k in pairs if k[0] != held])
        print("leave out %-14s p = %-4g held-out objective %.3f, "
              "joint fit's on it %.3f" % (held, p, score(p, test), score(best, test)))
    gpus = sorted({k[1] for k in pairs})
    if len(gpus) > 1:
        def show(q, k):
            return "%.3f / %.1f%% / %.1f%%" % (tau[q][k], 100 * figs[q][k][0],
                                                100 * figs[q][k][1])
        print("\nleave-one-GPU-out (p fitted without the GPU; its pairs at that p, "
              "tau / regret / shortlist; at the joint fit's p after ->):")
        moved = 0
        for held in gpus:
            p = fit([k for k in pairs if k[1] != held])
            moved += p != best
            for k in (k for k in pairs if k[1] == held):
                print("  %-16s %-14s %-6s p = %-4g %s%s" % (
                    held, k[0], k[2], p, show(p, k),
                    "" if p == best else "  -> %s" % show(best, k)))
        print("held-out GPUs whose fit differs from the joint fit: %d of %d" % (
            moved, len(gpus)))
    print("\nrun files: %s" % keep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
