#!/usr/bin/env python3
"""Predicted against measured time across kernels of one computation.

Where the tuning data ask whether FlipFlop ranks the configurations of one
kernel, a set here asks whether it puts different implementations of the
same computation at their measured times and in their measured order, as a
developer comparing them would use it. Each set (a folder with a
kernels.json) lists kernels with the launch their own code gives them and
a published measured rate on one GPU; provenance in heldout/README.md.
Held out of every fit.

  sgemm-cuda              siboehm/SGEMM_CUDA, 10 kernels, RTX A6000
  cuda-gemm-optimization  leimao/CUDA-GEMM-Optimization, 12 kernels, RTX 3090
  how-to-optimize-in-gpu  Liu-xiandong/How_to_optimize_in_GPU, 8 reductions, V100

A kernel gives its measurement as a rate ("gflops" or "tflops" of the
set's "flop") or as a time ("ns"); "args" of its own replace the set's.
Each kernel is built as its repository builds it (nvcc) and predicted
through both front ends: nvcc's PTX and flipflop-ptx, and clang with the
plugin (which predicts clang's binary, not the measured nvcc one). Prints
per kernel the measured and predicted times and log2(predicted /
measured), then Kendall tau-b, MdAPE and the largest |log2| per route, with
the naive baseline (threads x PTX instructions) for the ranking.

A kernel either names a template instantiation to launch ("call": the
script writes a small translation unit that includes the file and launches
it, with the set's "signature") or the PTX entry its file already
instantiates ("entry"). The sources are not in this repository: fetch the
files each kernels.json names (commits given) into SET/src/ (git ignores
it), or point --src at them.

  python3 bench/fidelity/heldout/implementations.py SET [--build build] [--src DIR] [--json F]
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
        if ".entry" in line:
            return line.split(".entry", 1)[1].strip().split("(")[0].strip()
    raise RuntimeError("no .entry in the PTX")


def driver(spec, k):
    """Our own translation unit: the kernel's header and one launch at its
    configuration (so that its template is instantiated)."""
    names = [p.split()[-1].lstrip("*") for p in spec["signature"].split(",")]
    return ('#include "%s"\nvoid flipflop_launch(%s) {\n  %s<<<dim3(%d, %d, %d), dim3(%d, %d, %d)>>>(%s);\n}\n'
            % (k["file"], spec["signature"], k["call"], *k["grid"], *k["block"], ", ".join(names)))


def measured_ms(spec, k):
    if "ns" in k:  # a measured time, not a rate
        return k["ns"] * 1e-6
    rate = k["gflops"] * 1e9 if "gflops" in k else k["tflops"] * 1e12
    return spec["flop"] / rate * 1e3


def predict(tools, spec, k, src, tmp, tag):
    if "call" in k:
        cu = os.path.join(tmp, tag + ".cu")
        with open(cu, "w") as f:
            f.write(driver(spec, k))
    else:
        cu = os.path.join(src, k["file"])
    arch, gpu = spec["arch"], spec["gpu"]
    std = ["-std=" + spec["std"]] if spec.get("std") else []
    incs = ["-I" + src] + ["-I" + os.path.join(src, d) for d in spec.get("include_dirs", [])]
    block = ",".join(map(str, k["block"]))
    grid = ",".join(map(str, k["grid"]))
    stated = k.get("args", spec["args"])
    args = ",".join("%s=%s" % kv for kv in sorted(stated.items()))
    ptx = os.path.join(tmp, tag + ".ptx")
    fidelity.run([tools.nvcc, "-ptx", "-O3", "-arch=" + arch, "-w"] + std + incs + [cu, "-o", ptx])
    with open(ptx) as f:
        text = f.read()
    name = k.get("entry") or entry_name(text)
    threads = math.prod(k["block"]) * math.prod(k["grid"])
    out = {"naive": fidelity.count_ptx_instructions(text, name) * threads}
    # The harness's own routes, with a recipe of this kernel (built by nvcc).
    recipe = {"name": name, "kernel": name, "args": stated, "toolchain": "nvcc"}
    got = fidelity.predict_ptx(tools, ptx, recipe, gpu, k["block"], k["grid"])
    out["ptx"] = got["time"] if got else None
    rdir = os.path.join(tmp, "r-" + tag)
    os.makedirs(rdir)
    env = fidelity.plugin_env(recipe, rdir, gpu, "%s@%s:%s" % (gpu, block, grid), args)
    fidelity.run([tools.clang, "-x", "cuda", "--cuda-device-only", "-S", "-O3",
                  "--cuda-gpu-arch=" + arch, "--cuda-path=" + tools.cuda,
                  "-Wno-unknown-cuda-version", "-w"] + std + fidelity.NVCC_LIKE_INLINING +
                 ["-fpass-plugin=" + tools.plugin] + incs +
                 [cu, "-o", os.path.join(tmp, tag + "-clang.ptx")], env=env)
    (report,) = os.listdir(rdir)
    with open(os.path.join(rdir, report)) as f:
        rep = json.load(f)
    out["plugin"] = None
    for kern in rep.get("kernels", []):
        if "entry" in k and kern["name"] != k["entry"]:
            continue
        for launch in kern.get("launches", []):
            if launch["prediction"].get("valid"):
                out["plugin"] = launch["prediction"]["time_s"] * 1e3
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("set", help="a folder of heldout/ with a kernels.json "
                                "(sgemm-cuda, cuda-gemm-optimization, how-to-optimize-in-gpu)")
    ap.add_argument("--build", default="build")
    ap.add_argument("--src", help="the fetched sources (default SET/src)")
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args()
    folder = a.set if os.path.isdir(a.set) else os.path.join(HERE, a.set)
    try:
        with open(os.path.join(folder, "kernels.json")) as f:
            spec = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("implementations.py: %s: %s" % (a.set, e))
    src = os.path.abspath(a.src or os.path.join(folder, "src"))
    need = [k["file"] for k in spec["kernels"]] + list(spec.get("headers", {}))
    missing = [n for n in need if not os.path.exists(os.path.join(src, n))]
    if missing:
        sys.exit("implementations.py: %s lacks %s%s: fetch them from %s (heldout/README.md)"
                 % (src, ", ".join(missing[:3]), " and %d more" % (len(missing) - 3)
                    if len(missing) > 3 else "", spec["repository"]))
    tools = fidelity.Tools(os.path.abspath(a.build))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, k in enumerate(spec["kernels"]):
            p = predict(tools, spec, k, src, tmp, "k%d" % i)
            p.update({"name": k.get("name") or k["file"], "measured": measured_ms(spec, k)})
            rows.append(p)
    print("%s on %s" % (spec["repository"], spec["gpu"]))
    print("| kernel | measured ms | flipflop-ptx ms | log2 | plugin ms | log2 |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        cells = []
        for fe in ("ptx", "plugin"):
            cells += (["%.2f" % r[fe], "%+.2f" % math.log2(r[fe] / r["measured"])]
                      if r[fe] else ["-", "-"])
        print("| %s | %.2f | %s |" % (r["name"], r["measured"], " | ".join(cells)))
    meas = [r["measured"] for r in rows]
    summary = {"naive_tau": fidelity.kendall_tau_b([r["naive"] for r in rows], meas)}
    for fe in ("ptx", "plugin"):
        ok = [r for r in rows if r[fe]]
        m = [r["measured"] for r in ok]
        p = [r[fe] for r in ok]
        summary[fe] = {"n": len(ok), "tau": fidelity.kendall_tau_b(p, m) if ok else None,
                       "mdape": fidelity.mdape(p, m) if ok else None,
                       "median_log2": statistics.median(math.log2(x / y) for x, y in zip(p, m))
                       if ok else None,
                       "max_abs_log2": max(abs(math.log2(x / y)) for x, y in zip(p, m))
                       if ok else None}
    print()
    for fe in ("ptx", "plugin"):
        s = summary[fe]
        if s["n"]:
            print("%-7s n %d  tau %.3f  MdAPE %.1f%%  median log2 %+.2f  max |log2| %.2f" % (
                fe, s["n"], s["tau"], 100 * s["mdape"], s["median_log2"], s["max_abs_log2"]))
    print("naive   tau %.3f (threads x PTX instructions)" % summary["naive_tau"])
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"set": spec["repository"], "rows": rows, "summary": summary}, f, indent=1)


if __name__ == "__main__":
    main()
