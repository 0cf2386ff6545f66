#!/usr/bin/env python3
"""How much of a fidelity figure is the sample: bootstrap intervals.

The harness scores FlipFlop on a fixed random sample of each tuning space
(300 configurations by default). Another sample of the same space would
give other figures, and a change of the model that moves a tau by 0.02 may
be no more than that. This script resamples the configurations of a
`fidelity.py --json` run with replacement and recomputes, per (kernel,
GPU, front end), the harness's own figures (Kendall tau-b, regret,
shortlist; fidelity.py's definitions): their 5th and 95th percentiles over
the resamples say how far the sample alone moves them. (A configuration
drawn twice is a tie of the prediction, which the shortlist counts whole,
so its upper percentile leans high.)

With --against OTHER.json (a run of another model on the same sample:
a scan, a refit, the code before a change), each resample is scored on both
runs at once (paired bootstrap), and the interval is that of the
difference OTHER - RUN, with the share of resamples in which OTHER's tau is
lower: a change whose interval holds 0 is within what the sample decides.

Usage: uncertainty.py RUN.json [--against OTHER.json] [--resamples 1000]
       [--seed 1] [--only kernel:GPU] [--frontend ptx|plugin]
Standard library only; about 3 ms a resample and pair on this machine.
"""
import argparse
import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fidelity import regret, shortlist  # noqa: E402  (the harness's figures)
from residuals import quantile  # noqa: E402


def _tied_pairs(sorted_keys):
    """Pairs of equal keys in a sorted list."""
    t = 0
    run = 1
    for a, b in zip(sorted_keys, sorted_keys[1:]):
        if a == b:
            run += 1
        else:
            t += run * (run - 1) // 2
            run = 1
    return t + run * (run - 1) // 2


def _inversions(v):
    """Pairs i < j with v[i] > v[j] (strictly), by merge sort; sorts v."""
    n = len(v)
    if n < 2:
        return 0
    mid = n // 2
    left, right = v[:mid], v[mid:]
    inv = _inversions(left) + _inversions(right)
    i = j = k = 0
    while i < len(left) and j < len(right):
        if right[j] < left[i]:
            v[k] = right[j]
            inv += len(left) - i
            j += 1
        else:
            v[k] = left[i]
            i += 1
        k += 1
    v[k:] = left[i:] + right[j:]
    return inv


def kendall_tau_b(x, y):
    """Kendall tau-b in O(n log n) (Knight's method); equal to
    fidelity.kendall_tau_b, ties and repeated points included."""
    n = len(x)
    order = sorted(range(n), key=lambda i: (x[i], y[i]))
    n0 = n * (n - 1) // 2
    n1 = _tied_pairs([x[i] for i in order])
    n3 = _tied_pairs([(x[i], y[i]) for i in order])
    ys = [y[i] for i in order]
    n2 = _tied_pairs(sorted(ys))
    disc = _inversions(ys)
    den = math.sqrt((n0 - n1) * (n0 - n2))
    return (n0 - n1 - n2 + n3 - 2 * disc) / den if den else float("nan")


def figures(pred, meas):
    return {"tau": kendall_tau_b(pred, meas), "regret": regret(pred, meas),
            "shortlist": shortlist(pred, meas)}


def percentile(v, q):
    """residuals.quantile over the draws that are numbers (a tau of a
    resample whose predictions all tie is not)."""
    return quantile([x for x in v if not math.isnan(x)], q)


def load(path):
    with open(path) as f:
        try:
            rows = json.load(f)
        except ValueError as e:
            raise ValueError("%s: %s" % (path, e))
    out = {}
    for r in rows:
        smp = [s for s in r["samples"] if s.get("predicted_ms") and s.get("measured_ms")]
        if any("config" not in s for s in smp):
            raise ValueError("%s: a sample of %s/%s has no configuration" % (
                path, r["kernel"], r["gpu"]))
        out[(r["kernel"], r["gpu"], r["frontend"])] = smp
    return out


def config_key(s):
    return json.dumps(s["config"], sort_keys=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json")
    ap.add_argument("--against", help="another run on the same sample: paired differences")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", action="append", default=[], help="kernel:GPU (repeatable)")
    ap.add_argument("--frontend", default=None)
    a = ap.parse_args()
    if a.resamples < 1:
        print("uncertainty.py: --resamples must be at least 1", file=sys.stderr)
        return 2
    try:
        base = load(a.json)
        other = load(a.against) if a.against else None
    except KeyError as e:
        print("uncertainty.py: not a fidelity.py --json run: a row has no %s" % e,
              file=sys.stderr)
        return 2
    except (OSError, ValueError, TypeError) as e:
        print("uncertainty.py: cannot read a fidelity run: %s" % e, file=sys.stderr)
        return 2
    rng = random.Random(a.seed)
    names = ("tau", "regret", "shortlist")
    if other is None:
        print("| kernel | GPU | front end | n | tau-b [5%, 95%] | regret [5%, 95%] "
              "| shortlist [5%, 95%] |")
        print("|---|---|---|---|---|---|---|")
    else:
        print("| kernel | GPU | front end | n | tau-b: run -> other, difference "
              "[5%, 95%], other lower in | regret difference [5%, 95%] "
              "| shortlist difference [5%, 95%] |")
        print("|---|---|---|---|---|---|---|")
    shown = 0
    for key in sorted(base):
        kernel, gpu, fe = key
        if a.frontend and fe != a.frontend:
            continue
        if a.only and not any(o in (kernel, "%s:%s" % (kernel, gpu)) for o in a.only):
            continue
        smp = base[key]
        if len(smp) < 3:
            continue
        if other is not None:
            if key not in other:
                print("| %s | %s | %s | - | not in %s | | |" % (kernel, gpu, fe, a.against))
                continue
            # Pair the two runs' samples by configuration.
            theirs = {config_key(s): s for s in other[key]}
            pairs = [(s, theirs[config_key(s)]) for s in smp if config_key(s) in theirs]
            if len(pairs) < 3:
                print("| %s | %s | %s | %d | the runs share %d configurations | | |" % (
                    kernel, gpu, fe, len(smp), len(pairs)))
                continue
            meas = [s["measured_ms"] for s, _ in pairs]
            p1 = [s["predicted_ms"] for s, _ in pairs]
            p2 = [t["predicted_ms"] for _, t in pairs]
        else:
            meas = [s["measured_ms"] for s in smp]
            p1 = [s["predicted_ms"] for s in smp]
            p2 = None
        n = len(meas)
        full1 = figures(p1, meas)
        full2 = figures(p2, meas) if p2 else None
        draws = {k: [] for k in names}
        lower = 0
        for _ in range(a.resamples):
            idx = [rng.randrange(n) for _ in range(n)]
            m = [meas[i] for i in idx]
            f1 = figures([p1[i] for i in idx], m)
            if p2 is None:
                for k in names:
                    draws[k].append(f1[k])
            else:
                f2 = figures([p2[i] for i in idx], m)
                for k in names:
                    draws[k].append(f2[k] - f1[k])
                lower += f2["tau"] < f1["tau"]
        iv = {k: (percentile(draws[k], 0.05), percentile(draws[k], 0.95)) for k in names}
        if p2 is None:
            print("| %s | %s | %s | %d | %.3f [%.3f, %.3f] | %.1f%% [%.1f, %.1f] "
                  "| %.1f%% [%.1f, %.1f] |" % (
                      kernel, gpu, fe, n, full1["tau"], iv["tau"][0], iv["tau"][1],
                      100 * full1["regret"], 100 * iv["regret"][0], 100 * iv["regret"][1],
                      100 * full1["shortlist"], 100 * iv["shortlist"][0],
                      100 * iv["shortlist"][1]))
        else:
            print("| %s | %s | %s | %d | %.3f -> %.3f, %+.3f [%+.3f, %+.3f], %.0f%% "
                  "| %+.1f%% [%+.1f, %+.1f] | %+.1f%% [%+.1f, %+.1f] |" % (
                      kernel, gpu, fe, n, full1["tau"], full2["tau"],
                      full2["tau"] - full1["tau"], iv["tau"][0], iv["tau"][1],
                      100.0 * lower / a.resamples,
                      100 * (full2["regret"] - full1["regret"]), 100 * iv["regret"][0],
                      100 * iv["regret"][1],
                      100 * (full2["shortlist"] - full1["shortlist"]),
                      100 * iv["shortlist"][0], 100 * iv["shortlist"][1]))
        shown += 1
    if not shown:
        print("uncertainty.py: no (kernel, GPU, front end) of %s matches" % a.json,
              file=sys.stderr)
        return 1
    print("\n%d resamples of the configurations (seed %d); percentiles of the %s." % (
        a.resamples, a.seed, "paired differences" if other is not None else "figures"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
