#!/usr/bin/env python3
"""Predicted against measured time across kernels: siboehm's SGEMM_CUDA.

Ten SGEMM kernels (naive to warp-tiled), each at the launch its runner gives
it for M = N = K = 4096, measured on an RTX A6000 (the repository README's
GFLOP/s; provenance in heldout/README.md, "sgemm-cuda"). Held out of every fit. Each
kernel is compiled as the repository builds it (nvcc, sm_86) and predicted
through both front ends: nvcc's PTX and flipflop-ptx, and clang with the
plugin (which predicts clang's binary, not the measured nvcc one). Prints
per kernel the measured and predicted times and log2(predicted / measured),
then Kendall tau-b, MdAPE and the largest |log2| per route, with the naive
baseline (threads x PTX instructions) for the ranking.

The kernel sources are not in this repository: fetch src/kernels/*.cuh of
github.com/siboehm/SGEMM_CUDA (the commits in sgemm-cuda/kernels.json) into
sgemm-cuda/src/ (git ignores it), or point --src at them.

  python3 bench/fidelity/heldout/sgemm_cuda.py [--build build] [--json F]
"""
import argparse
import json
import math
import os
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import fidelity  # noqa: E402  (bench/fidelity/fidelity.py)


def entry_name(ptx):
    for line in ptx.splitlines():
        if line.lstrip().startswith(".visible .entry") or line.lstrip().startswith(".entry"):
            return line.split(".entry", 1)[1].strip().split("(")[0].strip()
    raise RuntimeError("no .entry in the PTX")


def driver(spec, k):
    """Our own translation unit: the kernel's header and one launch at the
    runner's configuration (so that its template is instantiated)."""
    names = [p.split()[-1].lstrip("*") for p in spec["signature"].split(",")]
    return ('#include "%s"\nvoid flipflop_launch(%s) {\n  %s<<<dim3(%d, %d, %d), dim3(%d, %d, %d)>>>(%s);\n}\n'
            % (k["file"], spec["signature"], k["call"], *k["grid"], *k["block"], ", ".join(names)))


def predict(tools, spec, k, src, tmp):
    cu = os.path.join(tmp, "k%d.cu" % k["n"])
    with open(cu, "w") as f:
        f.write(driver(spec, k))
    arch, gpu = spec["arch"], spec["gpu"]
    block = ",".join(map(str, k["block"]))
    grid = ",".join(map(str, k["grid"]))
    args = ",".join("%s=%s" % kv for kv in sorted(spec["args"].items()))
    ptx = os.path.join(tmp, "k%d.ptx" % k["n"])
    fidelity.run([tools.nvcc, "-ptx", "-O3", "-arch=" + arch, "-w", "-I" + src, cu, "-o", ptx])
    with open(ptx) as f:
        text = f.read()
    name = entry_name(text)
    threads = math.prod(k["block"]) * math.prod(k["grid"])
    out = {"naive": fidelity.count_ptx_instructions(text, name) * threads}
    csv = fidelity.run([tools.ptx_tool, ptx, "--gpu", gpu, "--kernel", name, "--block", block,
                        "--grid", grid, "--arg", args, "--csv"]).splitlines()
    row = dict(zip(csv[0].split(","), csv[1].split(",")))
    out["ptx"] = float(row["time_s"]) * 1e3 if row.get("valid") == "1" else None
    rdir = os.path.join(tmp, "r%d" % k["n"])
    os.makedirs(rdir)
    env = {kk: v for kk, v in os.environ.items()
           if not kk.startswith("FLIPFLOP_") or kk.startswith("FLIPFLOP_FIT_")}
    env.update({"FLIPFLOP_REPORT_DIR": rdir, "FLIPFLOP_GPU": gpu,
                "FLIPFLOP_LAUNCH": "%s@%s:%s" % (gpu, block, grid), "FLIPFLOP_ARGS": args,
                "FLIPFLOP_PTXAS": "on", "FLIPFLOP_NO_CONFIG_SEARCH": "1"})
    fidelity.run([tools.clang, "-x", "cuda", "--cuda-device-only", "-S", "-O3",
                  "--cuda-gpu-arch=" + arch, "--cuda-path=" + tools.cuda,
                  "-Wno-unknown-cuda-version", "-w"] + fidelity.NVCC_LIKE_INLINING +
                 ["-fpass-plugin=" + tools.plugin, "-I" + src, cu,
                  "-o", os.path.join(tmp, "c%d.ptx" % k["n"])], env=env)
    (report,) = os.listdir(rdir)
    with open(os.path.join(rdir, report)) as f:
        rep = json.load(f)
    out["plugin"] = None
    for kern in rep.get("kernels", []):
        for launch in kern.get("launches", []):
            if launch["prediction"].get("valid"):
                out["plugin"] = launch["prediction"]["time_s"] * 1e3
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--src", default=os.path.join(HERE, "sgemm-cuda", "src"))
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args()
    with open(os.path.join(HERE, "sgemm-cuda", "kernels.json")) as f:
        spec = json.load(f)
    missing = [k["file"] for k in spec["kernels"]
               if not os.path.exists(os.path.join(a.src, k["file"]))]
    if missing:
        sys.exit("sgemm_cuda.py: %s lacks %s: fetch src/kernels/ of %s (heldout/README.md, 'sgemm-cuda')"
                 % (a.src, ", ".join(missing), spec["repository"]))
    tools = fidelity.Tools(os.path.abspath(a.build))
    flops = 2.0 * spec["size"] ** 3
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in spec["kernels"]:
            p = predict(tools, spec, k, os.path.abspath(a.src), tmp)
            p.update({"n": k["n"], "file": k["file"], "measured": flops / (k["gflops"] * 1e9) * 1e3})
            rows.append(p)
    print("| kernel | measured ms | flipflop-ptx ms | log2 | plugin ms | log2 |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        cells = []
        for fe in ("ptx", "plugin"):
            cells += (["%.2f" % r[fe], "%+.2f" % math.log2(r[fe] / r["measured"])]
                      if r[fe] else ["-", "-"])
        print("| %d %s | %.2f | %s |" % (r["n"], r["file"].split(".")[0].split("_", 1)[1],
                                         r["measured"], " | ".join(cells)))
    meas = [r["measured"] for r in rows]
    summary = {"naive_tau": fidelity.kendall_tau_b([r["naive"] for r in rows], meas)}
    for fe in ("ptx", "plugin"):
        ok = [r for r in rows if r[fe]]
        m = [r["measured"] for r in ok]
        p = [r[fe] for r in ok]
        summary[fe] = {"n": len(ok), "tau": fidelity.kendall_tau_b(p, m),
                       "mdape": fidelity.mdape(p, m),
                       "median_log2": statistics.median(math.log2(x / y) for x, y in zip(p, m)),
                       "max_abs_log2": max(abs(math.log2(x / y)) for x, y in zip(p, m))}
    print()
    for fe in ("ptx", "plugin"):
        s = summary[fe]
        print("%-7s n %d  tau %.3f  MdAPE %.1f%%  median log2 %+.2f  max |log2| %.2f" % (
            fe, s["n"], s["tau"], 100 * s["mdape"], s["median_log2"], s["max_abs_log2"]))
    print("naive   tau %.3f (threads x PTX instructions)" % summary["naive_tau"])
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "summary": summary}, f, indent=1)


if __name__ == "__main__":
    main()
