#!/usr/bin/env python3
"""FlipFlop fidelity harness: predicted vs measured time on real tuning spaces.

Reads brute-forced, measured Kernel Tuner tuning spaces (our CSV export or a
Kernel Tuner cache JSON), draws a fixed random sample of configurations per
(kernel, GPU), builds each configuration's PTX exactly as Kernel Tuner did,
asks FlipFlop for the predicted time of that configuration's launch through
both front ends, and scores the predictions against the measurements:

  plugin  clang++-22 -x cuda --cuda-device-only + FlipFlop.so, whose JSON
          report holds the prediction for the launch given in FLIPFLOP_LAUNCH;
          by default with an inline threshold that inlines every device
          function, as NVIDIA's compilers did for the measured binaries
          (--clang-inlining=default keeps clang's policy), and with
          FLIPFLOP_PTXAS=on, exact registers as flipflop-ptx has them
          (--plugin-ptxas=off: the plugin's default estimate)
  ptx     nvcc -ptx (the toolchain that produced the measurements) +
          flipflop-ptx --block/--grid
  clang-ptx  (diagnostic, not by default) clang's PTX of the same compile
          the plugin sees, without the plugin, through flipflop-ptx: it
          separates what clang's code costs (clang-ptx vs ptx) from what
          the IR front end adds (plugin vs clang-ptx)

Figures per (kernel, GPU, front end): Kendall tau-b, Spearman rho, regret of
the predicted fastest (measured), shortlist (share of the predicted ranking
that must be taken to hold a configuration within 5% of the measured best),
median absolute percentage error of time; and the same for two baselines:
threads x PTX instructions (scale fitted, which favours it) and NVIDIA's
occupancy-heuristic order (no absolute time).

  bench/fidelity/fidelity.py                       # every recipe, 300 configs
  bench/fidelity/fidelity.py --sample 40 --only gemm:RTX-3090
  bench/fidelity/fidelity.py --t1 k.json --cache k_A100.json.gz \\
        --source k.cu --gpu A100-PCIE-40GB --arch sm_80   # any Kernel Tuner run
  bench/fidelity/fidelity.py --guard bench/fidelity/guard.json  # test subset

Standard library only. Compiled PTX and reports are cached under
--work (default build/fidelity), keyed by everything that changes them.
"""

import argparse
import concurrent.futures as cf
import csv
import gzip
import hashlib
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_DATA = os.path.normpath(os.path.join(ROOT, "..", "shared", "data", "tuning"))
WITHIN = 0.05  # "within 5% of the measured best"


# ---------------------------------------------------------------------------
# Statistics (exact, O(n^2) is fine for a few hundred points)
# ---------------------------------------------------------------------------

def kendall_tau_b(x, y):
    n = len(x)
    conc = disc = tx = ty = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = (x[i] > x[j]) - (x[i] < x[j])
            dy = (y[i] > y[j]) - (y[i] < y[j])
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif dx == dy:
                conc += 1
            else:
                disc += 1
    den = math.sqrt((conc + disc + tx) * (conc + disc + ty))
    return (conc - disc) / den if den else float("nan")


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return num / den if den else float("nan")


def regret(pred, meas):
    """Measured time of the predicted fastest over the measured best, - 1.
    Ties in the prediction: the mean over the tied configurations."""
    lo = min(pred)
    tied = [m for p, m in zip(pred, meas) if p == lo]
    return statistics.fmean(tied) / min(meas) - 1


def shortlist(pred, meas):
    """Share of the predicted ranking (best first) needed to hold a
    configuration within WITHIN of the measured best. Ties in the prediction
    count whole (a tied group is taken or not)."""
    best = min(meas)
    order = sorted(range(len(pred)), key=lambda i: pred[i])
    taken = 0
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and pred[order[j + 1]] == pred[order[i]]:
            j += 1
        taken = j + 1
        if any(meas[order[k]] <= best * (1 + WITHIN) for k in range(i, j + 1)):
            return taken / len(order)
        i = j + 1
    return 1.0


def mdape(pred, meas):
    return statistics.median(abs(p - m) / m for p, m in zip(pred, meas))


def score(pred, meas, absolute=True):
    return {
        "tau": kendall_tau_b(pred, meas),
        "rho": spearman(pred, meas),
        "regret": regret(pred, meas),
        "shortlist": shortlist(pred, meas),
        "mdape": mdape(pred, meas) if absolute else None,
    }


# ---------------------------------------------------------------------------
# Measured data: our CSV export or a Kernel Tuner cache (.json / .json.gz)
# ---------------------------------------------------------------------------

def open_text(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def read_measurements(path, fastest=None):
    """{config tuple of ints: time_ms} and the parameter names. With a dict
    \p fastest, also the fastest single launch per configuration (CSV
    column times_ms_min, or the cache's per-launch list)."""
    rows = {}
    if path.endswith(".csv") or path.endswith(".csv.gz"):
        with open_text(path) as f:
            r = csv.reader(f)
            head = next(r)
            ti = head.index("time_ms")
            mi = head.index("times_ms_min") if "times_ms_min" in head else -1
            names = head[:ti]
            for row in r:
                key = tuple(int(float(v)) for v in row[:ti])
                rows[key] = float(row[ti])
                if fastest is not None and mi >= 0:
                    fastest[key] = float(row[mi])
        return names, rows
    with open_text(path) as f:
        cache = json.load(f)
    names = cache["tune_params_keys"]
    for entry in cache["cache"].values():
        t = entry.get("time")
        if isinstance(t, (int, float)) and math.isfinite(t):
            key = tuple(int(entry[n]) for n in names)
            rows[key] = float(t)
            ts = entry.get("times")
            if fastest is not None and isinstance(ts, list) and ts:
                fastest[key] = float(min(ts))
    return names, rows


# ---------------------------------------------------------------------------
# Recipes: how one configuration is built and launched
# ---------------------------------------------------------------------------

def safe_eval(expr, params):
    """Integer arithmetic over tunable names (recipes and T1 files)."""
    if not re.fullmatch(r"[\w\s+\-*/%()]+", str(expr)):
        raise ValueError("unsupported expression '%s'" % expr)
    return int(eval(str(expr), {"__builtins__": {}}, dict(params)))


def launch_of(recipe, params):
    block = [safe_eval(e, params) for e in recipe["block"]]
    grid = []
    for d in range(3):
        div = 1
        for e in recipe["grid_div"][d]:
            div *= safe_eval(e, params)
        grid.append(-(-recipe["problem_size"][d] // div))
    return block, grid


def source_text(recipe, params, data_dir):
    """The source Kernel Tuner compiled: files concatenated with the recipe's
    prefix/suffix; a loop_unroll_factor parameter becomes a constexpr, or its
    '#pragma unroll NAME' lines go when it is 0; wrapped in extern "C" when
    the text has none (Kernel Tuner's rule)."""
    parts = list(recipe.get("prefix", []))
    for s in recipe["sources"]:
        with open(os.path.join(data_dir, s)) as f:
            parts.append(f.read())
    parts += recipe.get("suffix", [])
    text = "\n".join(parts) + "\n"
    consts = []
    for name, value in params.items():
        if "loop_unroll_factor" in name:
            if value == 0:
                text = re.sub(r"^\s*#pragma unroll\s+%s\s*$" % re.escape(name), "",
                              text, flags=re.M)
            else:
                consts.append("constexpr int %s = %d;" % (name, value))
    if 'extern "C"' not in text:
        text = 'extern "C" {\n' + text + "\n}\n"
    return "\n".join(consts) + ("\n" if consts else "") + text


def defines_of(recipe, params):
    d = dict(recipe.get("defines", {}))
    for name, value in params.items():
        if "loop_unroll_factor" not in name:
            d[name] = value
    return ["-D%s=%s" % (k, v) for k, v in sorted(d.items())]


def recipe_from_t1(t1_path, cache_path, source, gpu, arch):
    """A recipe from a Kernel Tuner T1 description plus one cache file."""
    with open(t1_path) as f:
        t1 = json.load(f)
    ks = t1["KernelSpecification"]
    local = ks.get("LocalSize", {})
    block = [str(local.get(a, "1")) for a in ("X", "Y", "Z")]
    grid_div = [ks.get("GridDivX", [block[0]]), ks.get("GridDivY", [block[1]]),
                ks.get("GridDivZ", [])]
    args = {}
    for i, a in enumerate(ks.get("Arguments", [])):
        if a.get("MemoryType") == "Scalar" and isinstance(a.get("FillValue"), (int, float)):
            args[str(i)] = int(a["FillValue"])
    inc = [os.path.dirname(os.path.abspath(source))]
    # Kernel Tuner compiles OpenCL through the driver (its opencl backend).
    toolchain = "opencl-driver" if str(ks.get("Language", "")).lower() == "opencl" else "nvcc"
    return {
        "toolchain": toolchain,
        "name": ks.get("KernelName", os.path.basename(source)),
        "sources": [os.path.abspath(source)],
        "include_dirs": inc,
        "kernel": ks["KernelName"],
        "defines": {"kernel_tuner": 1},
        "block": block,
        "problem_size": (list(ks.get("ProblemSize", [1])) + [1, 1, 1])[:3],
        "grid_div": grid_div,
        "args": args,
        "gpus": [{"data": os.path.abspath(cache_path), "gpu": gpu, "arch": arch}],
    }


# ---------------------------------------------------------------------------
# Predictions
# ---------------------------------------------------------------------------

class Tools:
    def __init__(self, build):
        self.build = build
        self.ptx_tool = os.path.join(build, "bin", "flipflop-ptx")
        self.plugin = os.path.join(build, "lib", "FlipFlop.so")
        self.nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        self.clang = os.environ.get("CLANG", "/usr/lib/llvm-22/bin/clang++")
        self.cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")

    def stamp(self, path):
        st = os.stat(path)
        return "%s:%d:%d" % (path, st.st_size, int(st.st_mtime))


def run(cmd, env=None, cwd=None):
    p = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (os.path.basename(cmd[0]), p.returncode,
                                                (p.stderr or p.stdout).strip()[-600:]))
    return p.stdout


def count_ptx_instructions(ptx, kernel):
    """Static instruction count of one .entry (the naive baseline)."""
    m = re.search(r"\.entry\s+%s\s*\(" % re.escape(kernel), ptx)
    if not m:
        return 0
    body = ptx[m.end():]
    start = body.find("{")
    depth, n, i = 0, 0, start
    for line in body[start:].splitlines():
        s = line.strip()
        depth += s.count("{") - s.count("}")
        if s.endswith(";") and not s.startswith(".") and not s.startswith("//"):
            n += 1
        if depth <= 0 and i != start:
            break
        i += 1
    return n


def cached(work, kind, ext, key_text, name, text, produce):
    """The file work/kind/<hash of key_text>.ext, made once: produce(tmp, src)
    compiles the source \p text (written to tmp/name) and returns the path
    of its result, which is moved into the cache."""
    key = hashlib.sha1(key_text.encode()).hexdigest()[:20]
    out = os.path.join(work, kind, key + "." + ext)
    if not os.path.exists(out):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with tempfile.TemporaryDirectory(dir=work) as tmp:
            src = os.path.join(tmp, name)
            with open(src, "w") as f:
                f.write(text)
            os.replace(produce(tmp, src), out)
    return out


def nvcc_flags(recipe, params, arch, data_dir):
    """nvcc's options for one configuration (PTX here, cubins in measure.py)."""
    return ["-O3", "-arch=" + arch] + \
        ["-I" + os.path.join(data_dir, d) for d in recipe.get("include_dirs", [])] + \
        defines_of(recipe, params)


def build_ptx(tools, work, recipe, params, arch, data_dir):
    """nvcc PTX of one configuration (cached)."""
    text = source_text(recipe, params, data_dir)
    flags = ["-ptx"] + nvcc_flags(recipe, params, arch, data_dir)

    def produce(tmp, src):
        run([tools.nvcc] + flags + ["-w", src, "-o", os.path.join(tmp, "k.ptx")])
        return os.path.join(tmp, "k.ptx")
    return cached(work, "ptx", "ptx", text + " ".join(flags) + tools.stamp(tools.nvcc),
                  recipe["name"] + ".cu", text, produce)


# The toolchain that built the measured binaries, where the recipe (or a T1
# file's language) says it was not nvcc's: NVIDIA's OpenCL driver behaves as
# if it did not merge scalar shared loads off loop-stepped pointers, which
# ptxas does (docs/MODEL.md, "Vector accesses the compiler forms"), so the
# model is told, as the plugin route is told to inline as nvcc did.
TOOLCHAINS = {"nvcc": {"FLIPFLOP_FIT_ASSEMBLER": "ptxas"},
              "opencl-driver": {"FLIPFLOP_FIT_ASSEMBLER": "opencl-driver"}}
# --toolchain: every recipe's measured binaries taken as built so (a scan:
# what ptxas's merges would do to the OpenCL-built gemm, for example).
TOOLCHAIN_OVERRIDE = [None]


def toolchain_of(recipe):
    """The toolchain taken to have built the recipe's measured binaries."""
    return TOOLCHAIN_OVERRIDE[0] or recipe.get("toolchain", "nvcc")


def toolchain_env(recipe):
    """The model's settings for the measured binaries' toolchain."""
    t = toolchain_of(recipe)
    if t not in TOOLCHAINS:
        raise ValueError("%s: unknown toolchain %r (known: %s)" % (
            recipe["name"], t, ", ".join(sorted(TOOLCHAINS))))
    return TOOLCHAINS[t]


def predict_ptx(tools, ptx, recipe, gpu, block, grid):
    args = ",".join("%s=%s" % kv for kv in sorted(recipe.get("args", {}).items()))
    cmd = [tools.ptx_tool, ptx, "--gpu", gpu, "--kernel", recipe["kernel"],
           "--block", ",".join(map(str, block)), "--grid", ",".join(map(str, grid)), "--csv"]
    if args:
        cmd += ["--arg", args]
    env = dict(os.environ)
    env.update(toolchain_env(recipe))
    out = run(cmd, env=env).splitlines()
    head = out[0].split(",")
    row = dict(zip(head, out[1].split(",")))
    if row.get("valid") != "1":
        return None
    out = {"time": float(row["time_s"]) * 1e3, "occupancy": float(row["occupancy"]),
           "registers": int(row["registers"]), "bound": row["bottleneck"],
           "clock_mhz": float(row["clock_mhz"]), "power_w": float(row["avg_power_w"])}
    if "t_issue_s" in row:  # the components, for reading residuals
        out["parts_ms"] = {k: float(row["t_%s_s" % k]) * 1e3 for k in PARTS}
    if row.get("busiest_pipe"):  # the issue time's busiest pipe and its share
        out["pipe"] = [row["busiest_pipe"], float(row["busiest_pipe_share"])]
    return out


# The time's components (the report's "time_parts_s").
PARTS = ("issue", "shared", "l2", "dram", "latency")


# Extra clang options for the plugin front end (--clang-flag).
CLANG_EXTRA = []
# The plugin's FLIPFLOP_PTXAS (--plugin-ptxas): "on" (exact registers, as
# flipflop-ptx has them by default, so that both front ends start from the
# same facts) or "off" (the plugin's own default: estimated registers).
PLUGIN_PTXAS = ["on"]

# The measured binaries were built by NVIDIA's compilers, which inlined every
# device function (no call in any of the 1,814 nvcc PTX files of the data);
# clang inlines less (CLBlast's StoreResults or XgemmBody stay calls in 84 of
# 600 gemm builds, and the accumulators then live in local memory). By
# default the plugin and clang-ptx routes compile with an inline threshold
# that inlines them all (0 calls left in the 600), so that the plugin is
# judged on the code that was measured; --clang-inlining=default keeps
# clang's own policy (docs/FIDELITY.md, "Session 9").
NVCC_LIKE_INLINING = ["-mllvm", "-inline-threshold=5000"]


# NVIDIA's front ends address a loop's shared tiles from its counter (nvcc's
# PTX recomputes `k * pitch` each pass); clang's loop strength reduction
# steps a pointer instead. ptxas merges scalar shared loads off either form,
# the OpenCL driver's assembler not off stepped ones (TOOLCHAINS above), so
# for binaries the driver built the address form decides the vectors the
# model prices: the plugin and clang-ptx routes then compile without strength
# reduction, as they inline as nvcc did; --clang-addressing=default keeps
# clang's (docs/FIDELITY.md, "Session 58").
NVIDIA_LIKE_ADDRESSING = {"opencl-driver": ["-mllvm", "-disable-lsr"]}
CLANG_ADDRESSING = ["nvidia"]


def toolchain_clang_flags(recipe):
    """clang options that make its code address memory as the measured
    binaries' toolchain did (none unless --clang-addressing=nvidia)."""
    if CLANG_ADDRESSING[0] != "nvidia":
        return []
    return NVIDIA_LIKE_ADDRESSING.get(toolchain_of(recipe), [])


def clang_flags(tools, recipe, params, arch, data_dir, plugin=()):
    """clang's device-only compile of one configuration, as the plugin sees it."""
    return CLANG_EXTRA + toolchain_clang_flags(recipe) + ["-x", "cuda", "--cuda-device-only", "-S", "-O3", "--cuda-gpu-arch=" + arch,
                          "--cuda-path=" + tools.cuda, "-Wno-unknown-cuda-version", "-w"] + \
        list(plugin) + \
        ["-D%s=%s" % kv for kv in sorted(recipe.get("clang_defines", {}).items())] + \
        ["-I" + os.path.join(data_dir, d) for d in recipe.get("include_dirs", [])] + \
        defines_of(recipe, params)


def build_clang_ptx(tools, work, recipe, params, arch, data_dir):
    """clang's PTX of one configuration, no plugin (cached)."""
    text = source_text(recipe, params, data_dir)
    flags = clang_flags(tools, recipe, params, arch, data_dir)

    def produce(tmp, src):
        run([tools.clang] + flags + [src, "-o", os.path.join(tmp, "k.ptx")])
        return os.path.join(tmp, "k.ptx")
    return cached(work, "clang-ptx", "ptx", text + " ".join(flags) + tools.stamp(tools.clang),
                  recipe["name"] + ".cu", text, produce)


def plugin_env(recipe, report_dir, gpu, launch_spec, args):
    """The plugin's settings for one compile: its report, the compile's GPU,
    the launches to predict (FLIPFLOP_LAUNCH), the stated arguments and the
    measured binaries' toolchain. The model's fit overrides (FLIPFLOP_FIT_*,
    docs/MODEL.md) pass through, so that a scan reaches the plugin route
    too; every other FLIPFLOP_ setting of the caller's is dropped."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("FLIPFLOP_") or k.startswith("FLIPFLOP_FIT_")}
    env.update(toolchain_env(recipe))
    env.update({"FLIPFLOP_REPORT_DIR": report_dir, "FLIPFLOP_GPU": gpu,
                "FLIPFLOP_LAUNCH": launch_spec, "FLIPFLOP_NO_CONFIG_SEARCH": "1"})
    if args:
        env["FLIPFLOP_ARGS"] = args
    if PLUGIN_PTXAS[0] != "off":
        env["FLIPFLOP_PTXAS"] = PLUGIN_PTXAS[0]
    return env


def predict_plugin(tools, work, recipe, params, arch, launches, data_dir):
    """One clang compile per (configuration, arch); the report holds the
    prediction of each (GPU, launch) asked for in FLIPFLOP_LAUNCH."""
    text = source_text(recipe, params, data_dir)
    flags = clang_flags(tools, recipe, params, arch, data_dir, ["-fpass-plugin=" + tools.plugin])
    spec = ";".join("%s@%s:%s" % (g, ",".join(map(str, b)), ",".join(map(str, gr)))
                    for g, b, gr in launches)
    args = ",".join("%s=%s" % kv for kv in sorted(recipe.get("args", {}).items()))

    def produce(tmp, src):
        env = plugin_env(recipe, os.path.join(tmp, "r"), launches[0][0], spec, args)
        run([tools.clang] + flags + [src, "-o", os.path.join(tmp, "k.ptx")], env=env)
        reports = os.listdir(os.path.join(tmp, "r"))
        if len(reports) != 1:
            raise RuntimeError("expected one report, found %d" % len(reports))
        return os.path.join(tmp, "r", reports[0])
    out = cached(work, "plugin", "json", text + " ".join(flags) + spec + args +
                 tools.stamp(tools.plugin) + tools.stamp(tools.clang) +
                 ("" if PLUGIN_PTXAS[0] == "off" else " ptxas=" + PLUGIN_PTXAS[0]) +
                 "".join(" %s=%s" % kv for kv in sorted(toolchain_env(recipe).items())) +
                 "".join(" %s=%s" % kv for kv in sorted(os.environ.items())
                         if kv[0].startswith("FLIPFLOP_FIT_")),
                 recipe["name"] + ".cu", text, produce)
    with open(out) as f:
        rep = json.load(f)
    res = {}
    for k in rep.get("kernels", []):
        if k["name"] != recipe["kernel"]:
            continue
        for l in k.get("launches", []):
            p = l["prediction"]
            if p.get("valid"):
                res[l["gpu"]] = {"time": p["time_s"] * 1e3, "occupancy": p["occupancy"],
                                 "registers": p["registers"], "bound": p["bottleneck"],
                                 "clock_mhz": p.get("clock_mhz"), "power_w": p.get("avg_power_w")}
                if "time_parts_s" in p:
                    res[l["gpu"]]["parts_ms"] = {k: p["time_parts_s"].get(k, 0) * 1e3
                                                 for k in PARTS}
                if "busiest_pipe" in p:
                    res[l["gpu"]]["pipe"] = [p["busiest_pipe"]["pipe"],
                                             p["busiest_pipe"]["share"]]
    return res


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------

def parse_where(items):
    """{parameter: set of values} from --where NAME=V[/V...][,NAME=V...]."""
    where = {}
    for item in items:
        for term in item.split(","):
            if not term.strip():
                continue
            name, sep, values = term.partition("=")
            if not sep or not name.strip():
                raise ValueError("--where: expected NAME=VALUE, got '%s'" % term)
            try:
                vals = {int(float(v)) for v in values.split("/")}
            except ValueError:
                raise ValueError("--where: '%s' is not a number or NUMBER/NUMBER" % values)
            where.setdefault(name.strip(), set()).update(vals)
    return where


def draw_sample(name, space, sample, seed):
    """The fixed sample of a kernel's measured space: the same
    configurations for every GPU of a kernel and every run of a seed."""
    rng = random.Random("%s:%d" % (name, seed))
    return rng.sample(sorted(space), min(sample, len(space)))


def data_path(g, data_dir):
    """A GPU entry's measurements: "data" under the tuning-data folder, or
    "measured" under bench/fidelity (our own runs, measure.py, or held-out
    data, heldout/)."""
    if "measured" in g:
        return os.path.join(HERE, g["measured"])
    return os.path.join(data_dir, g["data"])


def gpu_groups(recipe):
    """The recipe's GPUs as sampling groups: the tuning data's GPUs share one
    sample (the configurations all of them measured); a "measured" entry
    (our own runs, or a held-out sample) covers only part of the space and
    is sampled on its own."""
    shared = [g for g in recipe["gpus"] if "measured" not in g]
    return ([shared] if shared else []) + [[g] for g in recipe["gpus"] if "measured" in g]


def group_toolchain(recipe, group):
    """What built a sampling group's measured binaries: the recipe's
    "toolchain" for the tuning data's GPUs, ptxas's for our own runs (a
    "measured" entry, built by nvcc or clang), unless the entry names it."""
    g = group[0]
    return g.get("toolchain", "nvcc" if "measured" in g else recipe.get("toolchain", "nvcc"))


def evaluate(recipe, data_dir, tools, work, sample, seed, frontends, only_gpus, jobs, log,
             where=None):
    gpus = [g for g in recipe["gpus"]
            if not only_gpus or g.get("label", g["gpu"]) in only_gpus]
    # Only the routes some GPU entry scores (a measured binary names its own).
    frontends = [fe for fe in frontends
                 if any(fe in g.get("frontends", frontends) for g in gpus)]
    measured, fastest = {}, {}
    names = None
    for g in gpus:
        fastest[g["gpu"]] = {}
        names, rows = read_measurements(data_path(g, data_dir), fastest[g["gpu"]])
        measured[g["gpu"]] = rows
    if not gpus:
        return []
    common = set.intersection(*(set(r) for r in measured.values()))
    if where:
        # A family of the measured space (every value of the others): the
        # population the sample is drawn from.
        unknown = sorted(set(where) - set(names))
        if unknown:
            raise ValueError("--where: %s has no parameter %s (it has %s)" % (
                recipe["name"], ", ".join(unknown), ", ".join(names)))
        col = {n: k for k, n in enumerate(names)}
        common = {c for c in common
                  if all(c[col[n]] in vals for n, vals in where.items())}
        log("  %s: %d measured configurations match --where" % (recipe["name"], len(common)))
        if not common:
            return []
    configs = draw_sample(recipe["name"], common, sample, seed)
    by_arch = {}
    for g in gpus:
        by_arch.setdefault(g["arch"], []).append(g["gpu"])

    preds = {}  # (frontend, gpu) -> list aligned with configs
    naive = {}  # arch -> [instructions x threads]

    def one(cfg, arch):
        params = dict(zip(names, cfg))
        block, grid = launch_of(recipe, params)
        out = {}
        if "ptx" in frontends or True:  # the PTX also feeds the naive baseline
            ptx = build_ptx(tools, work, recipe, params, arch, data_dir)
            with open(ptx) as f:
                n = count_ptx_instructions(f.read(), recipe["kernel"])
            out["naive"] = n * block[0] * block[1] * block[2] * grid[0] * grid[1] * grid[2]
            if "ptx" in frontends:
                for gpu in by_arch[arch]:
                    try:
                        out[("ptx", gpu)] = predict_ptx(tools, ptx, recipe, gpu, block, grid)
                    except Exception as e:  # e.g. a GPU this build lacks
                        out["ptx_error"] = str(e)
                        out[("ptx", gpu)] = None
        if "clang-ptx" in frontends:
            try:
                cptx = build_clang_ptx(tools, work, recipe, params, arch, data_dir)
                for gpu in by_arch[arch]:
                    out[("clang-ptx", gpu)] = predict_ptx(tools, cptx, recipe, gpu, block, grid)
            except Exception as e:
                out["clang-ptx_error"] = str(e)
                for gpu in by_arch[arch]:
                    out[("clang-ptx", gpu)] = None
        if "plugin" in frontends:
            try:
                got = predict_plugin(tools, work, recipe, params, arch,
                                     [(gpu, block, grid) for gpu in by_arch[arch]],
                                     data_dir)
            except Exception as e:  # one front end failing keeps the other
                out["plugin_error"] = str(e)
                got = {}
            for gpu in by_arch[arch]:
                out[("plugin", gpu)] = got.get(gpu)
        return out

    tasks = [(i, cfg, arch) for arch in by_arch for i, cfg in enumerate(configs)]
    results = {}
    errors = 0
    with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {ex.submit(one, cfg, arch): (i, arch) for i, cfg, arch in tasks}
        done = 0
        for fut in cf.as_completed(futs):
            i, arch = futs[fut]
            done += 1
            try:
                results[(i, arch)] = fut.result()
                err = (results[(i, arch)].get("plugin_error") or
                       results[(i, arch)].get("ptx_error") or
                       results[(i, arch)].get("clang-ptx_error"))
            except Exception as e:  # a configuration that does not build
                results[(i, arch)] = None
                err = str(e)
            if err:
                errors += 1
                if errors <= 3:
                    log("  %s config %s: %s" % (recipe["name"], configs[i], err))
            if done % 50 == 0:
                log("  %s: %d/%d builds" % (recipe["name"], done, len(tasks)))

    rows = []
    for g in gpus:
        gpu, arch = g["gpu"], g["arch"]
        # A GPU measured here names the binary it ran ("label", e.g.
        # H200-clang) and the routes that predict that binary ("frontends":
        # the plugin reads clang's, the PTX route nvcc's).
        name = g.get("label", gpu)
        base_idx = [i for i in range(len(configs)) if results.get((i, arch))]
        for fe in frontends:
            if fe not in g.get("frontends", frontends):
                continue
            idx = [i for i in base_idx if results[(i, arch)].get((fe, gpu))]
            if len(idx) < 3:
                rows.append({"kernel": recipe["name"], "gpu": name, "frontend": fe,
                             "n": len(idx), "error": "too few predictions"})
                continue
            meas = [measured[gpu][configs[i]] for i in idx]
            pred = [results[(i, arch)][(fe, gpu)]["time"] for i in idx]
            nv = [results[(i, arch)]["naive"] for i in idx]
            scale = statistics.median(m / p for m, p in zip(meas, nv) if p > 0)
            nv = [p * scale for p in nv]
            occ = [-(results[(i, arch)][(fe, gpu)]["occupancy"]) for i in idx]
            bounds = {}
            for i in idx:
                b = results[(i, arch)][(fe, gpu)]["bound"]
                bounds[b] = bounds.get(b, 0) + 1
            rows.append({
                "kernel": recipe["name"], "gpu": name, "frontend": fe, "n": len(idx),
                "flipflop": score(pred, meas),
                "naive": score(nv, meas),
                "occupancy": score(occ, meas, absolute=False),
                "median_ratio": statistics.median(p / m for p, m in zip(pred, meas)),
                # The measurement against itself (mean of the launches vs the
                # fastest launch): the tau no model can beat.
                "noise_tau": (kendall_tau_b([fastest[gpu][configs[i]] for i in idx], meas)
                              if all(configs[i] in fastest[gpu] for i in idx) else None),
                "bounds": bounds,
                "samples": [dict({"config": dict(zip(names, configs[i])), "measured_ms": m,
                                  "predicted_ms": p},
                                 **{k: results[(i, arch)][(fe, gpu)][k]
                                    for k in ("parts_ms", "pipe", "occupancy", "registers", "bound",
                                              "clock_mhz", "power_w")
                                    if k in results[(i, arch)][(fe, gpu)]})
                            for i, m, p in zip(idx, meas, pred)],
            })
    return rows


def fmt(v, pct=False):
    if v is None:
        return "—"
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    return ("%.1f%%" % (100 * v)) if pct else ("%.2f" % v)


def table(rows):
    head = ("| kernel | GPU | front end | n | tau-b | rho | regret | shortlist | MdAPE "
            "| pred/meas | naive tau / regret / shortlist / MdAPE "
            "| occupancy tau / regret / shortlist | noise tau |")
    lines = [head, "|" + "---|" * 13]
    for r in rows:
        if "error" in r:
            lines.append("| %s | %s | %s | %d | %s |" % (r["kernel"], r["gpu"], r["frontend"],
                                                       r["n"], r["error"]))
            continue
        f, n, o = r["flipflop"], r["naive"], r["occupancy"]
        lines.append("| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s / %s / %s / %s "
                     "| %s / %s / %s | %s |" % (
                         r["kernel"], r["gpu"], r["frontend"], r["n"], fmt(f["tau"]),
                         fmt(f["rho"]), fmt(f["regret"], True), fmt(f["shortlist"], True),
                         fmt(f["mdape"], True), fmt(r["median_ratio"]),
                         fmt(n["tau"]), fmt(n["regret"], True), fmt(n["shortlist"], True),
                         fmt(n["mdape"], True), fmt(o["tau"]), fmt(o["regret"], True),
                         fmt(o["shortlist"], True), fmt(r.get("noise_tau"))))
    return "\n".join(lines)


def check_guard(rows, guard):
    """Regression guard: tau must not fall below, regret and shortlist must not
    rise above, the figures recorded in the guard file."""
    bad = []
    for r in rows:
        key = "%s:%s:%s" % (r["kernel"], r["gpu"], r["frontend"])
        lim = guard.get("limits", {}).get(key)
        if lim is None:
            continue
        if "error" in r:
            bad.append("%s: %s" % (key, r["error"]))
            continue
        f = r["flipflop"]
        if not f["tau"] >= lim["min_tau"]:
            bad.append("%s: tau %.3f < %.3f" % (key, f["tau"], lim["min_tau"]))
        if not f["regret"] <= lim["max_regret"]:
            bad.append("%s: regret %.3f > %.3f" % (key, f["regret"], lim["max_regret"]))
        if "max_mdape" in lim and not f["mdape"] <= lim["max_mdape"]:
            bad.append("%s: MdAPE %.3f > %.3f" % (key, f["mdape"], lim["max_mdape"]))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=DEFAULT_DATA, help="tuning data folder")
    ap.add_argument("--recipes", default=os.path.join(HERE, "kernels"),
                    help="folder of recipe JSON files")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="FlipFlop build folder (bin/flipflop-ptx, lib/FlipFlop.so)")
    ap.add_argument("--work", default=None, help="cache folder (default BUILD/fidelity)")
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--frontends", default="ptx,plugin")
    ap.add_argument("--only", action="append", default=[],
                    help="KERNEL or KERNEL:GPU (repeatable)")
    ap.add_argument("--where", action="append", default=[],
                    help="draw the sample from the measured configurations whose "
                         "parameters have these values only: NAME=V[/V...][,NAME=V...] "
                         "(repeatable; a family of the space, e.g. to read one "
                         "parameter's paired effect with residuals.py --pair)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write every figure and sample here")
    ap.add_argument("--markdown", help="write the table (with the command) here")
    ap.add_argument("--guard", help="guard file: run its subset and check its limits")
    ap.add_argument("--clang-flag", action="append", default=[],
                    help="extra clang option for the plugin front end (repeatable)")
    ap.add_argument("--plugin-ptxas", choices=["off", "on"], default="on",
                    help="FLIPFLOP_PTXAS for the plugin: on (exact registers, as "
                         "flipflop-ptx; default) or off (the plugin's own default)")
    ap.add_argument("--clang-inlining", choices=["nvcc", "default"], default="nvcc",
                    help="plugin/clang-ptx routes: inline every device function as "
                         "nvcc did for the measured binaries (default), or keep clang's policy")
    ap.add_argument("--clang-addressing", choices=["nvidia", "default"], default="nvidia",
                    help="plugin/clang-ptx routes, binaries of the OpenCL driver: compile "
                         "without loop strength reduction, addressing shared tiles as "
                         "NVIDIA's front ends do (default), or keep clang's")
    ap.add_argument("--no-args", action="store_true",
                    help="do not state the kernels' argument values (as before --arg existed)")
    ap.add_argument("--toolchain", choices=sorted(TOOLCHAINS),
                    help="take every recipe's measured binaries as built by this toolchain "
                         "(default: each recipe's own \"toolchain\", nvcc where it names none)")
    ap.add_argument("--t1", help="Kernel Tuner T1 JSON (with --cache, --source, --gpu, --arch)")
    ap.add_argument("--cache")
    ap.add_argument("--source")
    ap.add_argument("--gpu")
    ap.add_argument("--arch")
    a = ap.parse_args()
    TOOLCHAIN_OVERRIDE[0] = a.toolchain
    PLUGIN_PTXAS[0] = a.plugin_ptxas
    if a.clang_inlining == "nvcc":
        CLANG_EXTRA.extend(NVCC_LIKE_INLINING)
    CLANG_EXTRA.extend(a.clang_flag)
    CLANG_ADDRESSING[0] = a.clang_addressing

    log = lambda s: print(s, file=sys.stderr, flush=True)
    guard = None
    if a.guard:
        with open(a.guard) as f:
            guard = json.load(f)
        a.sample = guard["sample"]
        a.only = guard["only"]
        a.frontends = guard.get("frontends", a.frontends)
    frontends = [f for f in a.frontends.split(",") if f]
    try:
        where = parse_where(a.where)
    except ValueError as e:
        sys.exit("fidelity: %s" % e)
    if where and guard:
        sys.exit("fidelity: --where does not go with --guard (the guard's sample is fixed)")
    tools = Tools(a.build)
    needs = [(tools.ptx_tool, "flipflop-ptx", "ptx"), (tools.ptx_tool, "flipflop-ptx", "clang-ptx"),
             (tools.plugin, "FlipFlop.so", "plugin")]
    for need, what, fe in needs:
        if fe in frontends and not os.path.exists(need):
            sys.exit("fidelity: %s not found at %s (build first, or --build)" % (what, need))
    if not os.path.exists(tools.nvcc):
        print("fidelity: nvcc not found: the measured PTX cannot be rebuilt", file=sys.stderr)
        sys.exit(77)
    work = a.work or os.path.join(a.build, "fidelity")
    os.makedirs(work, exist_ok=True)

    if a.t1:
        if not (a.cache and a.source and a.gpu and a.arch):
            sys.exit("fidelity: --t1 needs --cache, --source, --gpu and --arch")
        recipes = [recipe_from_t1(a.t1, a.cache, a.source, a.gpu, a.arch)]
        data_dir = "/"
    else:
        data_dir = a.data
        if not os.path.isdir(data_dir):
            print("fidelity: no tuning data at %s (--data)" % data_dir, file=sys.stderr)
            sys.exit(77 if guard else 2)
        recipes = []
        for fn in sorted(os.listdir(a.recipes)):
            if fn.endswith(".json"):
                with open(os.path.join(a.recipes, fn)) as f:
                    recipes.append(json.load(f))

    if a.no_args:
        for r in recipes:
            r["args"] = {}
    rows = []
    for r in recipes:
        sel = [o for o in a.only if o.split(":")[0] == r["name"]]
        if a.only and not sel:
            continue
        gpus = {o.split(":", 1)[1] for o in sel if ":" in o}
        missing = [s for s in r["sources"] if not os.path.isfile(os.path.join(data_dir, s))]
        if missing:
            # A recipe whose kernel source the user must fetch (a held-out
            # kernel whose code we may not copy): one line, not n = 0 rows.
            sys.exit("fidelity: %s: no %s under %s%s" % (
                r["name"], missing[0], data_dir,
                "; " + r["obtain"] if r.get("obtain") else ""))
        log("fidelity: %s, %d configurations, front ends %s" % (r["name"], a.sample,
                                                               ",".join(frontends)))
        for group in gpu_groups(r):
            if gpus and not gpus & {g.get("label", g["gpu"]) for g in group}:
                continue
            try:
                rows += evaluate(dict(r, gpus=group, toolchain=group_toolchain(r, group)),
                                 data_dir, tools, work, a.sample, a.seed,
                                 frontends, gpus, a.jobs, log, where)
            except ValueError as e:  # a --where naming no parameter of the kernel
                sys.exit("fidelity: %s" % e)

    print(table(rows))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    if a.markdown:
        cmd = "bench/fidelity/fidelity.py " + " ".join(sys.argv[1:])
        with open(a.markdown, "w") as f:
            f.write("<!-- written by %s -->\n\n" % cmd.strip())
            f.write(table(rows) + "\n")
    if guard:
        bad = check_guard(rows, guard)
        for b in bad:
            print("fidelity guard: " + b, file=sys.stderr)
        if bad:
            sys.exit(1)
        print("fidelity guard: %d rows within limits" % len(rows), file=sys.stderr)


if __name__ == "__main__":
    main()
