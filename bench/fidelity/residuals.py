#!/usr/bin/env python3
"""Residuals of a fidelity run, grouped by tunable parameter.

Reads the JSON written by `fidelity.py --json` and prints, per (kernel, GPU,
front end), the median log2(predicted / measured) time for each value of each
tunable parameter, with the count and the spread (inter-quartile range). A
model that ranks well has flat medians across every parameter; a slope names
the feature the model gets wrong (docs/FIDELITY.md, "What is still wrong").

Also prints the same grouping of the *measured* time (log2 over the sample's
median), to see which parameters matter in reality, and the same grouping by
what the model said of each sample: its bottleneck, the issue time's
busiest pipe and the quintile of its predicted board power (`fidelity.py
--json` records them).

With --pair NAME, prints instead the paired effect of one parameter: over
the configurations of the sample that differ in NAME only, the median
log2(time at NAME = v / time at NAME's lowest value), measured and
predicted, per value v (split by the values of --by NAME2,... if given). A
model can have flat residuals and still miss an effect that the data show
only between otherwise equal configurations; a sample drawn from one family
of the space (`fidelity.py --where`) holds enough such pairs.

With --interaction A,B, prints the joint effect of two parameters: over
the configurations that differ in A and B only and were sampled at all
four corners (each parameter's lowest and highest value), the median
log2 of each corner against (A low, B low), measured and predicted, and
the interaction (both high, minus A alone, minus B alone): 0 where the
two effects add. A model that gets each effect right on average can
still miss an interaction (docs/FIDELITY.md, "Session 32": SA x SB on
the RTX 3090). Split by --by as --pair is.

With --cross GPU_A:GPU_B, prints instead the cross-GPU residual of each
kernel that both GPUs measured on the same configurations: per
configuration, log2(measured A / measured B) minus log2(predicted A /
predicted B). What the model gets wrong alike on both GPUs (a kernel's
miscounted work) cancels, and what remains is what the model misses
about how the two GPUs differ, grouped by each tunable parameter, by the
register count (in steps of 32) and by the resident warps on A (from the
prediction's occupancy and --warps-a, the SM's warp slots).

Usage: residuals.py fidelity.json [--only kernel:GPU] [--frontend ptx]
       [--param NAME] [--worst N] [--pair NAME [--by NAME2,...]]
       [--interaction A,B [--by NAME2,...]]
       [--cross GPU_A:GPU_B [--warps-a N]]
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


def power_quintiles(samples):
    """A sample's predicted board power as its quintile of the sample, named
    by the quintile's highest watts ("q5<=349W"): configurations the model
    calls power-hungry that run slower than predicted point at a clock the
    board lowers under its power limit, which the model does not predict
    (docs/FIDELITY.md, "Session 57"). None where a run recorded no power."""
    watts = sorted(s["power_w"] for s in samples if s.get("power_w"))
    if len(watts) < 5:
        return lambda s: None
    tops = [watts[min(len(watts) - 1, (k * len(watts)) // 5 - 1)] for k in range(1, 6)]

    def label(s):
        w = s.get("power_w")
        if not w:
            return None
        k = next(i for i, t in enumerate(tops) if w <= t or i == 4)
        return "q%d<=%.0fW" % (k + 1, tops[k])
    return label


def families(samples, names):
    """The samples grouped by the rest of their configuration (every
    parameter but `names`), each group keyed by the values of `names`."""
    groups = {}
    for s in samples:
        c = s["config"]
        rest = tuple(sorted((k, v) for k, v in c.items() if k not in names))
        groups.setdefault(rest, {})[tuple(c[n] for n in names)] = s
    return groups


def paired(key, frontend, samples, name, by):
    """Prints the paired effect of parameter `name` (module docstring)."""
    if name not in samples[0]["config"]:
        print("== %s %s: no parameter %s" % (key, frontend, name))
        return
    groups = {rest: {v[0]: s for v, s in at.items()}
              for rest, at in families(samples, (name,)).items()}
    cells = {}
    for rest, by_value in groups.items():
        if len(by_value) < 2:
            continue
        ref = by_value[min(by_value)]
        split = tuple(dict(rest).get(b) for b in by)
        for v, s in by_value.items():
            if s is ref:
                continue
            cells.setdefault((split, v), []).append((
                math.log2(s["measured_ms"] / ref["measured_ms"]),
                math.log2(s["predicted_ms"] / ref["predicted_ms"])))
    print("== %s %s: paired effect of %s, median log2 measured / predicted "
          "against %s's lowest value" % (key, frontend, name, name))
    if not cells:
        print("  no configurations differ in %s only (draw a family with --where)" % name)
        return
    for (split, v) in sorted(cells, key=lambda c: (str(c[0]), c[1])):
        c = cells[(split, v)]
        head = " ".join("%s=%s" % (b, x) for b, x in zip(by, split))
        print("  %s%s=%s: measured %+.2f predicted %+.2f (n%d)" % (
            head + " " if head else "", name, v, median([x[0] for x in c]),
            median([x[1] for x in c]), len(c)))


def interaction(key, frontend, samples, names, by):
    """Prints the joint effect of two parameters (module docstring)."""
    a, b = names
    for n in (a, b):
        if n not in samples[0]["config"]:
            print("== %s %s: no parameter %s" % (key, frontend, n))
            return
    groups = families(samples, (a, b))
    lo_a = min(s["config"][a] for s in samples)
    hi_a = max(s["config"][a] for s in samples)
    lo_b = min(s["config"][b] for s in samples)
    hi_b = max(s["config"][b] for s in samples)
    corners = [(hi_a, lo_b), (lo_a, hi_b), (hi_a, hi_b)]
    cells = {}
    for rest, at in groups.items():
        if (lo_a, lo_b) not in at or any(c not in at for c in corners):
            continue
        ref = at[(lo_a, lo_b)]
        meas = [math.log2(at[c]["measured_ms"] / ref["measured_ms"]) for c in corners]
        pred = [math.log2(at[c]["predicted_ms"] / ref["predicted_ms"]) for c in corners]
        split = tuple(dict(rest).get(x) for x in by)
        cells.setdefault(split, []).append((meas + [meas[2] - meas[0] - meas[1]],
                                            pred + [pred[2] - pred[0] - pred[1]]))
    print("== %s %s: joint effect of %s and %s, median log2 measured / predicted "
          "against %s=%s %s=%s" % (key, frontend, a, b, a, lo_a, b, lo_b))
    if not cells:
        print("  no configurations sampled at all four corners of %s and %s "
              "(draw a family with --where)" % (a, b))
        return
    heads = ["%s=%s" % (a, hi_a), "%s=%s" % (b, hi_b), "both", "interaction"]
    for split in sorted(cells, key=str):
        c = cells[split]
        head = " ".join("%s=%s" % (x, v) for x, v in zip(by, split))
        print("  %s%s (n%d)" % (head + ": " if head else "", "  ".join(
            "%s %+.2f/%+.2f" % (h, median([m[i] for m, _ in c]), median([p[i] for _, p in c]))
            for i, h in enumerate(heads)), len(c)))


def cross(rows, frontend, pair, warps_a, params):
    """Prints the cross-GPU residual of GPU A against GPU B (module docstring)."""
    gpu_a, gpu_b = pair.split(":", 1)
    by = {}
    for r in rows:
        if r["frontend"] == frontend and r["gpu"] in (gpu_a, gpu_b):
            by.setdefault(r["kernel"], {})[r["gpu"]] = {
                json.dumps(s["config"], sort_keys=True): s for s in r.get("samples", [])
                if s.get("predicted_ms") and s.get("measured_ms")}
    for kernel, both in sorted(by.items()):
        if len(both) < 2:
            continue
        a, b = both[gpu_a], both[gpu_b]
        cells = []
        for k in sorted(set(a) & set(b)):
            x, y = a[k], b[k]
            cells.append((x, math.log2(x["measured_ms"] / y["measured_ms"]) -
                          math.log2(x["predicted_ms"] / y["predicted_ms"])))
        if len(cells) < 3:
            continue
        res = [e for _, e in cells]
        print("== %s %s, %s against %s: n=%d cross residual (measured ratio over "
              "predicted, log2) median %+.2f, IQR %.2f" % (
                  kernel, frontend, gpu_a, gpu_b, len(cells), median(res),
                  quantile(res, 0.75) - quantile(res, 0.25)))
        names = sorted(cells[0][0]["config"])
        if params:
            names = [p for p in names if p in params]
        keys = [(p, lambda s, p=p: s["config"][p]) for p in names]
        keys += [("(model) registers", lambda s: s.get("registers", 0) // 32 * 32
                  if s.get("registers") else None)]
        if warps_a:
            keys += [("(model) warps on A", lambda s: int(round(s["occupancy"] * warps_a))
                      if s.get("occupancy") else None)]
        for p, value in keys:
            groups = {}
            for s, e in cells:
                v = value(s)
                if v is not None:
                    groups.setdefault(v, []).append(e)
            if len(groups) < 2:
                continue
            print("  %-22s %s" % (p, "  ".join(
                "%s:%+.2f(n%d)" % (v, median(groups[v]), len(groups[v]))
                for v in sorted(groups))))


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
    ap.add_argument("--pair", help="paired effect of this parameter (see above)")
    ap.add_argument("--by", default="",
                    help="with --pair or --interaction: split by these parameters (NAME,NAME)")
    ap.add_argument("--interaction",
                    help="A,B: the joint effect of two parameters (see above)")
    ap.add_argument("--cross", help="GPU_A:GPU_B: the cross-GPU residual (see above)")
    ap.add_argument("--warps-a", type=int, default=0,
                    help="with --cross: GPU A's warp slots per SM, to group by resident warps")
    a = ap.parse_args()
    with open(a.json) as f:
        rows = json.load(f)
    if a.cross:
        if ":" not in a.cross:
            sys.exit("residuals.py: --cross wants GPU_A:GPU_B")
        for fe in ([a.frontend] if a.frontend else sorted({r["frontend"] for r in rows})):
            cross(rows, fe, a.cross, a.warps_a, a.param)
        return 0
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
        if a.pair:
            paired(key, r["frontend"], samples, a.pair,
                   [b for b in a.by.split(",") if b])
            continue
        if a.interaction:
            names = [n for n in a.interaction.split(",") if n]
            if len(names) != 2 or names[0] == names[1]:
                sys.exit("residuals.py: --interaction wants two parameters, A,B")
            interaction(key, r["frontend"], samples, names,
                        [b for b in a.by.split(",") if b])
            continue
        res = [math.log2(s["predicted_ms"] / s["measured_ms"]) for s in samples]
        mmed = median([s["measured_ms"] for s in samples])
        print("== %s %s: n=%d median log2(pred/meas) %+.2f, IQR %.2f" % (
            key, r["frontend"], len(samples), median(res),
            quantile(res, 0.75) - quantile(res, 0.25)))
        params = sorted(samples[0]["config"].keys())
        if a.param:
            params = [p for p in params if p in a.param]
        # The tunable parameters, then what the model says of each sample:
        # its bottleneck and the issue time's busiest pipe (when the run
        # recorded them), so that a residual can be read against the part of
        # the model that set the time.
        keys = [(p, lambda s, p=p: s["config"][p]) for p in params]
        if not a.param:
            keys += [("(model) bottleneck", lambda s: s.get("bound")),
                     ("(model) busiest pipe", lambda s: (s.get("pipe") or [None])[0]),
                     ("(model) power quintile", power_quintiles(samples))]
        for p, value in keys:
            groups = {}
            for s, e in zip(samples, res):
                v = value(s)
                if v is None:
                    continue
                groups.setdefault(v, []).append(
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
