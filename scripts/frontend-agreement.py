#!/usr/bin/env python3
"""Do the two front ends agree on the same PTX? For every bundled example:
compile with clang + the plugin (its JSON report, and the PTX clang emits),
run flipflop-ptx on that very PTX, and compare, kernel by kernel, the
configuration each pick names (block, min-blocks, power limit) and the
predicted time of the fastest pick.

  scripts/frontend-agreement.py [--build build] [--gpu A100-PCIE-40GB]

Prints one line per kernel that differs and a summary (docs/FIDELITY.md).
"""
import argparse, glob, json, os, subprocess, sys, tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def picked(kernel):
    out = {}
    for name, idx in kernel.get("picks", {}).items():
        c = kernel["configs"][idx]
        out[name] = (tuple(c["block"]), c["min_blocks_per_sm"], round(c["power_limit_w"]),
                     c["time_s"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--gpu", default="A100-PCIE-40GB")
    ap.add_argument("--arch", default="sm_80")
    a = ap.parse_args()
    clang = os.environ.get("CLANG", "/usr/lib/llvm-22/bin/clang++")
    cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    kernels = same = 0
    with tempfile.TemporaryDirectory() as tmp:
        for src in sorted(glob.glob(os.path.join(ROOT, "examples", "*.cu"))):
            name = os.path.basename(src)[:-3]
            rep = os.path.join(tmp, name)
            ptx = os.path.join(tmp, name + ".ptx")
            env = {k: v for k, v in os.environ.items() if not k.startswith("FLIPFLOP_")}
            env.update(FLIPFLOP_GPU=a.gpu, FLIPFLOP_REPORT_DIR=rep, FLIPFLOP_PTXAS="on",
                       FLIPFLOP_NO_CONFIG_SEARCH="1")
            subprocess.run([clang, "-x", "cuda", "--cuda-path=" + cuda,
                            "-Wno-unknown-cuda-version", "-std=c++17", "-O2",
                            "--cuda-device-only", "--cuda-gpu-arch=" + a.arch,
                            "-I" + os.path.join(ROOT, "examples"), "-S", src, "-o", ptx,
                            "-fpass-plugin=" + os.path.join(a.build, "lib", "FlipFlop.so")],
                           env=env, check=True, stderr=subprocess.DEVNULL)
            (plugin,) = [json.load(open(f)) for f in glob.glob(os.path.join(rep, "*.json"))]
            ptool = json.loads(subprocess.run(
                [os.path.join(a.build, "bin", "flipflop-ptx"), ptx, "--gpu", a.gpu, "--json"],
                check=True, stdout=subprocess.PIPE, text=True).stdout)
            other = {k["name"]: k for k in ptool["kernels"]}
            for k in plugin["kernels"]:
                if k["name"] not in other or not k.get("picks"):
                    continue
                kernels += 1
                p, q = picked(k), picked(other[k["name"]])
                # A pick differs when it names another configuration whose
                # predicted time is not within 1% (ties are not differences).
                diff = [n for n in p if n in q and p[n][:3] != q[n][:3] and
                        abs(p[n][3] / q[n][3] - 1) > 0.01]
                tf = p["fastest"][3] / q["fastest"][3]
                guessed = (len(k["profile"]["guesses"]), len(other[k["name"]]["profile"]["guesses"]))
                if not diff and abs(tf - 1) < 0.05:
                    same += 1
                else:
                    print("%-18s %-34s differ: %-28s fastest plugin/ptx %.2f, guessed loops %d/%d" % (
                        name, k["display_name"][:34], ",".join(diff) or "-", tf, *guessed))
    print("%d of %d kernels: same picks (ties within 1%% allowed) and fastest time within 5%%"
          % (same, kernels))


if __name__ == "__main__":
    main()
