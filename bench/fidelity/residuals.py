#!/usr/bin/env python3
"""Residuals of a fidelity run, grouped by tunable parameter.

Reads the JSON written by `fidelity.py --json` and prints, per (kernel, GPU,
front end), the median log2(predicted / measured) time for each value of each
tunable parameter, with the count and the spread (inter-quartile range). A
model that ranks well has flat medians across every parameter; a slope names
the feature the model gets wrong (docs/FIDELITY.md, "What is still wrong").

Also prints the same grouping of the *measured* time (log2 over the sample's
median), to see which parameters matter in reality.

Usage: residuals.py fidelity.json [--only kernel:GPU] [--frontend ptx]
       [--param NAME] [--worst N]
"""
import argparse
import json
import math
import sys


def median(v):
    s = sorted(v)
    n = len(s)
    if n == 0:
        return float("nan")
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def quantile(v, q):
    s = sorted(v)
    if not s:
        return float("nan")
    i = min(len(s) - 1, max(0, int(round(q * (len(s) - 1)))))
    return s[i]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json")
    ap.add_argument("--only", action="append", default=[],
                    help="kernel:GPU to show (repeatable)")
    ap.add_argument("--frontend", default=None, help="ptx or plugin (default both)")
    ap.add_argument("--param", action="append", default=[],
                    help="only these parameters (repeatable)")
    ap.add_argument("--worst", type=int, default=0,
                    help="also list the N configurations with the largest |residual|")
    a = ap.parse_args()
    with open(a.json) as f:
        rows = json.load(f)
    for r in rows:
        key = "%s:%s" % (r["kernel"], r["gpu"])
        if a.only and key not in a.only:
            continue
        if a.frontend and r["frontend"] != a.frontend:
            continue
        samples = [s for s in r.get("samples", [])
                   if s.get("predicted_ms") and s.get("measured_ms")]
        if not samples:
            continue
        res = [math.log2(s["predicted_ms"] / s["measured_ms"]) for s in samples]
        mmed = median([s["measured_ms"] for s in samples])
        print("== %s %s: n=%d median log2(pred/meas) %+.2f, IQR %.2f" % (
            key, r["frontend"], len(samples), median(res),
            quantile(res, 0.75) - quantile(res, 0.25)))
        params = sorted(samples[0]["config"].keys())
        if a.param:
            params = [p for p in params if p in a.param]
        for p in params:
            groups = {}
            for s, e in zip(samples, res):
                groups.setdefault(s["config"][p], []).append(
                    (e, math.log2(s["measured_ms"] / mmed)))
            if len(groups) < 2:
                continue
            cells = []
            for v in sorted(groups, key=lambda x: (isinstance(x, str), x)):
                g = groups[v]
                cells.append("%s:%+.2f/%+.2f(n%d)" % (
                    v, median([x[0] for x in g]), median([x[1] for x in g]), len(g)))
            print("  %-28s resid/meas  %s" % (p, "  ".join(cells)))
        if a.worst:
            order = sorted(range(len(samples)), key=lambda i: -abs(res[i]))
            for i in order[:a.worst]:
                s = samples[i]
                print("  worst %+.2f meas %.4g ms pred %.4g ms %s" % (
                    res[i], s["measured_ms"], s["predicted_ms"],
                    json.dumps(s["config"], sort_keys=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
