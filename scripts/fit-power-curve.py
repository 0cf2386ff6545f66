#!/usr/bin/env python3
"""Fits FlipFlop's power model to measured power-vs-clock data.

Model (docs/MODEL.md, section 3 "Power and DVFS"), for an FP32-saturating
kernel at core clock f:

    P(f) = S0 * (V(f)/Vfloor)^lam  +  D * (f/fmax) * V(f)^2

    V(f) = r                                  f <= fk   (voltage floor)
         = r + (1 - r) * (f - fk)/(fmax - fk) f >  fk   (linear V/f ramp)
    fk   = k * f_boost                 (the knee, a fraction of the boost clock)
    fmax = the board's maximum clock   (nvidia-smi "Max Clocks")
    S0   = IdleW + beta * Pmem         (static power at the floor voltage)
    Pmem = peak DRAM bandwidth x DRAM energy per byte (GDDR/LPDDR boards only:
           their idle figure is taken with the memory clock lowered; HBM boards
           idle with the memory at full clock, so IdleW already holds it)
    D    = eps * SMs * FP32 lanes/SM * fmax   (energy per FP32 lane op at Vmax)

Shared constants (GPU-independent, in include/flipflop/Model/ModelConstants.h):
k (knee / boost), r (floor voltage / Vmax), lam (growth of static power with
voltage), beta (background share of peak DRAM power), eps (J per FP32 lane
operation at Vmax, all overheads included). Per-GPU inputs are datasheet
figures (docs/GPUS.md), never the measured curve.

Fits: (1) jointly on every GPU in DATA_DIR, (2) leave-one-GPU-out: the
constants fitted on the other GPUs predict the held-out one (beta cannot be
identified without a GDDR board; when the only one is held out it takes the
prior BETA_PRIOR), (3) per GPU: S0, D, k, r free, as a calibrated spec sets
them (PowerSpec.Curve*). Objective: the largest relative error over the
points (grid search over k, r, lam, beta; weighted least squares for eps / D
and S0 at each grid point).

Usage: scripts/fit-power-curve.py DATA_DIR   (e.g. /work/shared/data/power-vs-clock)
Only the Python standard library is used so the numbers are reproducible
anywhere.
"""
import json
import math
import os
import sys

# Datasheet figures (docs/GPUS.md cites them), never fitted: boost and
# maximum clock (MHz), SMs, FP32 lanes per SM, idle board power (W), memory
# type, peak DRAM bandwidth (GB/s), TDP (W).
DATASHEET = {
    "NVIDIA A100-PCIE-40GB": dict(name="A100-PCIE-40GB", boost=1410.0,
                                  fmax=1410.0, sms=108, lanes=64, idle=35.0,
                                  mem="HBM2", bw=1555.0, tdp=250.0),
    "NVIDIA RTX A4000": dict(name="RTX-A4000", boost=1560.0, fmax=2100.0,
                             sms=48, lanes=128, idle=10.0, mem="GDDR6",
                             bw=448.0, tdp=140.0),
}
# DRAM energy per byte (ModelConstants.h: DramPJPerByteHBM / GDDR6 / GDDR5).
PJ_PER_BYTE = {"HBM": 48.0, "GDDR5": 128.0, "GDDR": 76.0}
BETA_PRIOR = 0.5
# Plausible ranges (docs/MODEL.md): knee 0.40-0.98 of boost, floor 0.50-0.98,
# lam 0-3 (leakage power ~ V * I_leak(V)), beta 0-1.
KS = [i / 100.0 for i in range(40, 99, 2)]
RS = [i / 100.0 for i in range(50, 99, 2)]
LAMS = [i / 4.0 for i in range(0, 13)]
BETAS = [i / 20.0 for i in range(0, 21)]


def pj_per_byte(mem):
    for key in ("HBM", "GDDR5", "GDDR"):
        if mem.startswith(key):
            return PJ_PER_BYTE[key]
    return PJ_PER_BYTE["GDDR"]


def mem_background_w(ds):
    """Peak DRAM power (W) that the idle figure does not contain."""
    if ds["mem"].startswith("HBM"):
        return 0.0
    return ds["bw"] * 1e9 * pj_per_byte(ds["mem"]) * 1e-12


def volt(f, fk, fmax, r):
    if f <= fk or fk >= fmax:
        return r
    return r + (1.0 - r) * (f - fk) / (fmax - fk)


def terms(ds, f, k, r, lam, beta):
    """(static W, dynamic W per unit eps) at clock f."""
    v = volt(f, k * ds["boost"], ds["fmax"], r)
    s0 = ds["idle"] + beta * mem_background_w(ds)
    stat = s0 * (v / r) ** lam
    lanes_ghz = ds["sms"] * ds["lanes"] * ds["fmax"] * 1e-3
    return stat, lanes_ghz * (f / ds["fmax"]) * v * v


def fit_eps(data, k, r, lam, beta):
    num = den = 0.0
    for ds, pts in data:
        for f, p in pts:
            s, h = terms(ds, f, k, r, lam, beta)
            num += h * (p - s) / (p * p)
            den += h * h / (p * p)
    return num / den if den > 0 else None


def rel_errors(ds, pts, k, r, lam, beta, eps):
    out = []
    for f, p in pts:
        s, h = terms(ds, f, k, r, lam, beta)
        out.append((f, p, s + eps * h, (s + eps * h - p) / p * 100.0))
    return out


def summary(errs):
    e = [x[3] for x in errs]
    return math.sqrt(sum(x * x for x in e) / len(e)), max(abs(x) for x in e)


def fit_shared(data, betas, lams):
    best = None
    for lam in lams:
        for beta in betas:
            for k in KS:
                for r in RS:
                    eps = fit_eps(data, k, r, lam, beta)
                    if eps is None or eps <= 0:
                        continue
                    mx = max(summary(rel_errors(ds, pts, k, r, lam, beta,
                                                eps))[1]
                             for ds, pts in data)
                    if best is None or mx < best[0] - 1e-9:
                        best = (mx, k, r, lam, beta, eps)
    return best


def fit_per_gpu(ds, pts, lam):
    """S0, D, k, r free (lam shared): what a calibrated spec's Curve* hold."""
    best = None
    for k in KS:
        for r in RS:
            fk = k * ds["boost"]
            rows = []
            for f, p in pts:
                v = volt(f, fk, ds["fmax"], r)
                rows.append(((v / r) ** lam, f / ds["fmax"] * v * v, p))
            a11 = a12 = a22 = b1 = b2 = 0.0
            for a, g, p in rows:
                w = 1.0 / (p * p)
                a11 += w * a * a
                a12 += w * a * g
                a22 += w * g * g
                b1 += w * p * a
                b2 += w * p * g
            det = a11 * a22 - a12 * a12
            if abs(det) < 1e-30:
                continue
            s = (b1 * a22 - b2 * a12) / det
            d = (a11 * b2 - a12 * b1) / det
            if s <= 0 or d <= 0:
                continue
            e = [(s * a + d * g - p) / p * 100.0 for a, g, p in rows]
            mx = max(abs(x) for x in e)
            if best is None or mx < best[0] - 1e-9:
                rms = math.sqrt(sum(x * x for x in e) / len(e))
                best = (mx, rms, s, d, k, r)
    return best


def load(path):
    with open(path) as f:
        d = json.load(f)
    pts = sorted((float(rec["core_freq"]), float(rec["nvml_power"]))
                 for rec in d["cache"].values())
    return d["device_name"], pts


def show(title, data, k, r, lam, beta, eps):
    print(title)
    for ds, pts in data:
        errs = rel_errors(ds, pts, k, r, lam, beta, eps)
        rms, mx = summary(errs)
        print("  %-16s RMS %.2f%%  max %.2f%%" % (ds["name"], rms, mx))
        print("    " + "  ".join("%.0f:%.1f/%.1f(%+.1f%%)" % (f, p, q, e)
                                 for f, p, q, e in errs))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: fit-power-curve.py DATA_DIR")
    data = []
    for fn in sorted(os.listdir(sys.argv[1])):
        if fn.endswith(".json"):
            name, pts = load(os.path.join(sys.argv[1], fn))
            if name not in DATASHEET:
                sys.exit("fit-power-curve.py: no datasheet entry for '%s'"
                         % name)
            data.append((DATASHEET[name], pts))

    # lam is chosen by leave-one-GPU-out cross-validation: with two GPUs a
    # single GPU cannot separate the growth of static power with voltage
    # from the V^2 of the dynamic term, so lam is a model-selection choice.
    print("== Cross-validation of lam (worst held-out point) ==")
    folds = {}
    for lam in LAMS:
        worst = 0.0
        for i, (ds, pts) in enumerate(data):
            rest = data[:i] + data[i + 1:]
            gddr = any(mem_background_w(d) > 0 for d, _ in rest)
            fit = fit_shared(rest, BETAS if gddr else [BETA_PRIOR], [lam])
            folds[(lam, i)] = fit
            worst = max(worst, summary(rel_errors(ds, pts, *fit[1:]))[1])
        print("  lam=%.2f: %.2f%%" % (lam, worst))
        folds[lam] = worst
    lam = min(LAMS, key=lambda l: (folds[l], l))

    print("== Joint fit of the shared constants (lam=%.2f) ==" % lam)
    mx, k, r, lam, beta, eps = fit_shared(data, BETAS, [lam])
    print("knee k=%.2f x boost, floor r=%.2f, lam=%.2f, beta=%.2f, "
          "eps=%.3f pJ per FP32 lane op at Vmax; worst point %.2f%%"
          % (k, r, lam, beta, eps * 1e3, mx))
    for ds, _ in data:
        s0 = ds["idle"] + beta * mem_background_w(ds)
        d = eps * ds["sms"] * ds["lanes"] * ds["fmax"] * 1e-3
        print("  %-16s S0=%.2f W (idle %.0f + %.2f memory background), "
              "D=%.2f W at %.0f MHz, knee %.0f MHz"
              % (ds["name"], s0, ds["idle"], s0 - ds["idle"], d, ds["fmax"],
                 k * ds["boost"]))
    show("Points (MHz: measured W / predicted W (error)):", data, k, r, lam,
         beta, eps)

    print("== Leave one GPU out (lam=%.2f) ==" % lam)
    for i, (ds, pts) in enumerate(data):
        _, k2, r2, lam2, beta2, eps2 = folds[(lam, i)]
        prior = not any(mem_background_w(d) > 0
                        for d, _ in data[:i] + data[i + 1:])
        print("held out %s: fitted on the others k=%.2f r=%.2f lam=%.2f "
              "beta=%.2f%s eps=%.3f pJ" % (ds["name"], k2, r2, lam2, beta2,
                                          " (prior)" if prior else "",
                                          eps2 * 1e3))
        show("", [(ds, pts)], k2, r2, lam2, beta2, eps2)

    print("== Per-GPU fit (PowerSpec.Curve* of a calibrated spec, lam=%.2f) =="
          % lam)
    for ds, pts in data:
        mx, rms, s, d, k, r = fit_per_gpu(ds, pts, lam)
        print("  %-16s CurveStaticW=%.2f CurveDynW=%.2f VoltKneeMHz=%.0f "
              "VoltFloorRatio=%.2f  RMS %.2f%% max %.2f%%"
              % (ds["name"], s, d, k * ds["boost"], r, rms, mx))


if __name__ == "__main__":
    main()
