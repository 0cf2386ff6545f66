#!/usr/bin/env python3
"""Fits FlipFlop's clock-to-power curve to measured power-vs-clock data.

Model (docs/MODEL.md, "Power against clock"):
    P(f) = S + D * x * v(x)^2,   x = f / f_boost,
    v(x) = r                               for x <= k   (voltage floor)
         = r + (1 - r) * (x - k) / (1 - k) for x >  k   (linear V/f ramp)
S: static/leakage + uncore floor (W); D: dynamic power of the FP32-saturating
kernel at the boost clock (W); k: voltage knee as a fraction of the boost
clock; r: floor voltage / voltage at boost.

Input: Kernel Tuner cache JSON files (nvml_power in W, core_freq in MHz).
For each file: a per-GPU fit (S, D, k, r) by grid search over (k, r) with
linear least squares for (S, D) in relative error. Then the shared normalised
shape (s = S/(S+D), k, r) that FlipFlop uses for GPUs without a calibrated
spec, with per-GPU scale P_boost = RefFraction * TDP, and its error.

Usage: scripts/fit-power-curve.py DATA_DIR   (e.g. /work/shared/data/power-vs-clock)
Only the Python standard library is used so the numbers are reproducible
anywhere.
"""
import json
import math
import os
import sys

# Datasheet figures used to normalise (docs/GPUS.md cites them): boost clock
# (MHz) and default power limit / TDP (W).
DATASHEET = {
    "NVIDIA A100-PCIE-40GB": {"boost": 1410.0, "tdp": 250.0},
    "NVIDIA RTX A4000": {"boost": 1560.0, "tdp": 140.0},
}


def volt(x, k, r):
    return r if x <= k else r + (1.0 - r) * (x - k) / (1.0 - k)


def shape(x, k, r):
    v = volt(x, k, r)
    return x * v * v


def lsq_sd(pts, k, r):
    """Weighted (relative-error) least squares for P = S + D * g(x)."""
    a11 = a12 = a22 = b1 = b2 = 0.0
    for x, p in pts:
        g = shape(x, k, r)
        w = 1.0 / (p * p)
        a11 += w
        a12 += w * g
        a22 += w * g * g
        b1 += w * p
        b2 += w * p * g
    det = a11 * a22 - a12 * a12
    if abs(det) < 1e-30:
        return None
    s = (b1 * a22 - b2 * a12) / det
    d = (a11 * b2 - a12 * b1) / det
    return s, d


def errors(pts, pred):
    rel = [(pred(x) - p) / p * 100.0 for x, p in pts]
    rms = math.sqrt(sum(e * e for e in rel) / len(rel))
    mx = max(abs(e) for e in rel)
    return rms, mx


def grid():
    for ki in range(30, 96):
        k = ki / 100.0
        for ri in range(40, 101):
            yield k, ri / 100.0


def load(path):
    with open(path) as f:
        d = json.load(f)
    name = d["device_name"]
    pts = []
    for rec in d["cache"].values():
        pts.append((float(rec["core_freq"]), float(rec["nvml_power"])))
    pts.sort()
    return name, pts


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: fit-power-curve.py DATA_DIR")
    data = []
    for fn in sorted(os.listdir(sys.argv[1])):
        if fn.endswith(".json"):
            name, pts = load(os.path.join(sys.argv[1], fn))
            if name not in DATASHEET:
                sys.exit("fit-power-curve.py: no datasheet entry for '%s'" % name)
            ds = DATASHEET[name]
            data.append((name, ds, [(f / ds["boost"], p) for f, p in pts]))

    print("== Per-GPU fit: P = S + D * x * v(x)^2, x = f / f_boost ==")
    per = {}
    for name, ds, pts in data:
        best = None
        for k, r in grid():
            sd = lsq_sd(pts, k, r)
            if sd is None or sd[0] < 0 or sd[1] <= 0:
                continue
            rms, mx = errors(pts, lambda x: sd[0] + sd[1] * shape(x, k, r))
            if best is None or rms < best[0]:
                best = (rms, mx, sd[0], sd[1], k, r)
        rms, mx, s, d, k, r = best
        per[name] = best
        print("%-22s S=%.2f W D=%.2f W knee=%.2f (%.0f MHz) floor=%.2f"
              "  RMS=%.2f%% max=%.2f%%  P(boost)/TDP=%.3f s=%.3f"
              % (name, s, d, k, k * ds["boost"], r, rms, mx, (s + d) / ds["tdp"],
                 s / (s + d)))

    # Shared normalised shape: P = Pb * (s + (1 - s) * g(x)); per-GPU Pb fitted.
    print("== Shared shape (used when PowerSpec.Curve* are zero) ==")
    best = None
    for k, r in grid():
        for si in range(5, 61):
            s = si / 100.0
            tot = 0.0
            pbs = []
            for name, ds, pts in data:
                # Pb minimising relative error: Pb = sum(h/p) / sum(h^2/p^2).
                num = den = 0.0
                for x, p in pts:
                    h = s + (1 - s) * shape(x, k, r)
                    num += h / p
                    den += h * h / (p * p)
                pb = num / den
                pbs.append(pb)
                for x, p in pts:
                    e = (pb * (s + (1 - s) * shape(x, k, r)) - p) / p
                    tot += e * e
            if best is None or tot < best[0]:
                best = (tot, s, k, r, pbs)
    _, s, k, r, pbs = best
    fracs = [pb / ds["tdp"] for pb, (_, ds, _) in zip(pbs, data)]
    ref = sum(fracs) / len(fracs)
    print("static fraction s=%.2f knee=%.2f floor=%.2f RefFraction(mean)=%.3f"
          % (s, k, r, ref))
    for (name, ds, pts), pb, fr in zip(data, pbs, fracs):
        rms, mx = errors(pts, lambda x: pb * (s + (1 - s) * shape(x, k, r)))
        pbd = ref * ds["tdp"]
        rms2, mx2 = errors(pts, lambda x: pbd * (s + (1 - s) * shape(x, k, r)))
        print("%-22s shape-only: P_boost=%.1f W (%.3f TDP) RMS=%.2f%% max=%.2f%%;"
              " datasheet-derived (P_boost=%.3f*TDP=%.1f W): RMS=%.2f%% max=%.2f%%"
              % (name, pb, fr, rms, mx, ref, pbd, rms2, mx2))


if __name__ == "__main__":
    main()
