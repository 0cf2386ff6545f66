#!/usr/bin/env python3
"""FlipFlop on your own code base: a corpus runner (python3 standard library).

Compiles every CUDA source of a folder (recursively: *.cu) device-only with
clang++ 22, once without and once with the FlipFlop plugin, and reports per
file and in total:

  crash      the compile with the plugin fails (or dies on a signal) where the
             one without it succeeds: a FlipFlop bug, never acceptable;
  hang       the compile with the plugin runs past --timeout seconds where
             the one without it does not;
  changed    the PTX differs between the two compiles (the plugin must not
             change code generation unless asked to);
  silent     kernels (`.entry` in the PTX) with no FlipFlop remark
             (FF001/FF010/FF900...) naming them;
  overhead   wall time of the plugin's compile over the baseline's (for
             careful timing, bench/compile-overhead alternates rounds).

Files the baseline itself cannot compile (missing headers, host-only code)
are listed as skipped, with the compiler's first error line.

  bench/corpus/corpus.py DIR [--build BUILD | --plugin FlipFlop.so]
      [--clang clang++] [--arch sm_80] [--gpu NAME]
      [--timeout 300] [--jobs 2] [--flags "-I... -D..."] [--json OUT]

Exit status: 1 when any file crashed, hung or changed its PTX, else 0.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dir", help="folder of .cu sources (searched recursively)")
    p.add_argument("--build", default=os.path.join(ROOT, "build"),
                   help="FlipFlop build folder (lib/FlipFlop.so)")
    p.add_argument("--plugin", help="FlipFlop.so (default: BUILD/lib/FlipFlop.so)")
    p.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    p.add_argument("--cuda-path", default="/usr/local/cuda")
    p.add_argument("--arch", default="sm_80")
    p.add_argument("--gpu", default="", help="FlipFlop GPU (default: by arch)")
    p.add_argument("--opt", default="-O2")
    p.add_argument("--flags", default="", help="extra compile flags")
    p.add_argument("--timeout", type=float, default=300)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--json", help="write every file's result here")
    return p.parse_args(argv)


def compile_once(args, src, out, plugin, env_extra):
    """Runs one device-only compile; returns (status, seconds, stderr)."""
    cmd = [args.clang, "-x", "cuda", "--cuda-device-only", "-S", args.opt,
           "--cuda-gpu-arch=" + args.arch, "-Wno-unknown-cuda-version",
           "-o", out, src]
    if os.path.isdir(args.cuda_path):
        cmd.insert(1, "--cuda-path=" + args.cuda_path)
    else:
        cmd[1:1] = ["-nocudainc", "-nocudalib"]
    cmd += args.flags.split()
    if plugin:
        cmd += ["-fpass-plugin=" + args.plugin,
                "-Rpass-analysis=flipflop", "-Rpass-missed=flipflop"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLIPFLOP_")}
    env["FLIPFLOP_NO_CONFIG_SEARCH"] = "1"
    env.update(env_extra)
    t0 = time.perf_counter()
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, env=env, text=True,
                                errors="replace")
    except OSError as e:
        return ("error", 0.0, str(e))
    try:
        _, err = proc.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return ("hang", args.timeout, "")
    wall = time.perf_counter() - t0
    if proc.returncode < 0:
        return ("signal %d" % -proc.returncode, wall, err)
    return ("ok" if proc.returncode == 0 else "fail", wall, err)


def kernels_of(ptx_path):
    try:
        with open(ptx_path, errors="replace") as f:
            return re.findall(r"\.entry\s+([\w$.]+)", f.read())
    except OSError:
        return []


def demangle(args, names):
    """The names as llvm-cxxfilt writes them (unchanged when it is missing)."""
    tool = "/usr/lib/llvm-22/bin/llvm-cxxfilt"
    if not names or not os.path.exists(tool):
        return list(names)
    out = subprocess.run([tool], input="\n".join(names) + "\n", text=True,
                         capture_output=True).stdout.splitlines()
    return out if len(out) == len(names) else list(names)


def run_file(args, src):
    with tempfile.TemporaryDirectory() as tmp:
        base_ptx = os.path.join(tmp, "base.ptx")
        ff_ptx = os.path.join(tmp, "ff.ptx")
        env = {}
        if args.gpu:
            env["FLIPFLOP_GPU"] = args.gpu
        st0, w0, e0 = compile_once(args, src, base_ptx, False, {})
        r = {"file": src, "baseline": st0, "base_s": round(w0, 3)}
        if st0 != "ok":
            first = next((l for l in e0.splitlines() if "error" in l), e0[:200])
            first = first.split("error: ", 1)[-1]
            r.update({"skipped": True, "why": first.strip()})
            return r
        st1, w1, e1 = compile_once(args, src, ff_ptx, True, env)
        r.update({"plugin": st1, "plugin_s": round(w1, 3),
                  "ratio": round(w1 / w0, 3) if w0 > 0 else None})
        r["crash"] = st1 not in ("ok", "hang")
        r["hang"] = st1 == "hang"
        if r["crash"]:
            tail = [l for l in e1.splitlines() if l.strip()][-3:]
            r["why"] = " | ".join(tail)
            return r
        if r["hang"]:
            return r
        with open(base_ptx, "rb") as a, open(ff_ptx, "rb") as b:
            r["changed"] = a.read() != b.read()
        kernels = kernels_of(ff_ptx)
        named = set(re.findall(r"\[FF\d+\] kernel '([^']+)'", e1))
        # Remarks name kernels by their demangled name.
        shown = demangle(args, kernels)
        silent = [k for k, d in zip(kernels, shown)
                  if d not in named and k not in named]
        r["kernels"] = len(kernels)
        r["silent"] = silent
        r["warnings"] = len(re.findall(r"warning: .*\[FF9\d\d\]|\[FF90\d\]", e1))
        return r


def main(argv):
    args = parse_args(argv)
    args.plugin = args.plugin or os.path.join(args.build, "lib", "FlipFlop.so")
    if not os.path.exists(args.plugin):
        print("corpus: no plugin at %s (build FlipFlop first, or --build)" %
              args.plugin, file=sys.stderr)
        return 2
    if not os.path.isdir(args.dir):
        print("corpus: '%s' is not a folder" % args.dir, file=sys.stderr)
        return 2
    srcs = sorted(os.path.join(d, f) for d, _, fs in os.walk(args.dir)
                  for f in fs if f.endswith(".cu"))
    if not srcs:
        print("corpus: no .cu files under '%s'" % args.dir, file=sys.stderr)
        return 2
    with ThreadPoolExecutor(max(1, args.jobs)) as ex:
        results = list(ex.map(lambda s: run_file(args, s), srcs))
    done = [r for r in results if not r.get("skipped")]
    print("%-40s %8s %8s %7s %8s %8s %7s" % ("file", "base s", "plugin s",
                                            "ratio", "kernels", "silent", "status"))
    for r in results:
        name = os.path.relpath(r["file"], args.dir)
        if r.get("skipped"):
            print("%-40s %8s %8s %7s %8s %8s %7s  %s" % (name[:40], "-", "-", "-",
                                                       "-", "-", "skipped", r["why"][:80]))
            continue
        status = ("CRASH" if r["crash"] else "HANG" if r["hang"] else
                  "CHANGED" if r.get("changed") else "ok")
        print("%-40s %8.2f %8.2f %7s %8s %8s %7s%s" % (
            name[:40], r["base_s"], r["plugin_s"],
            "%.2f" % r["ratio"] if r.get("ratio") else "-",
            r.get("kernels", "-"), len(r.get("silent", [])), status,
            "  " + r["why"][:120] if r.get("why") else ""))
    crashes = sum(r["crash"] for r in done)
    hangs = sum(r["hang"] for r in done)
    changed = sum(bool(r.get("changed")) for r in done)
    kernels = sum(r.get("kernels", 0) for r in done)
    silent = sum(len(r.get("silent", [])) for r in done)
    ratios = sorted(r["ratio"] for r in done if r.get("ratio"))
    median = ratios[len(ratios) // 2] if ratios else float("nan")
    total_b = sum(r["base_s"] for r in done)
    total_p = sum(r.get("plugin_s", 0) for r in done)
    print()
    print("files %d (skipped %d), kernels %d, crashes %d, hangs %d, changed PTX %d, "
          "kernels without a remark %d" % (len(results), len(results) - len(done),
                                           kernels, crashes, hangs, changed, silent))
    print("overhead: median per-file wall ratio %.2f, total %.1f s -> %.1f s (%.2fx)"
          % (median, total_b, total_p, total_p / total_b if total_b else float("nan")))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "crashes": crashes, "hangs": hangs,
                       "changed": changed, "silent": silent,
                       "median_ratio": median}, f, indent=1)
    return 1 if crashes or hangs or changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
