#!/usr/bin/env python3
"""Measure a sample of a tuning space on this machine's GPU (time and energy).

Two steps, so that the GPU machine only measures:

  build   (any machine with nvcc; no GPU) draws the configurations, compiles
          each one to a cubin for --arch exactly as the fidelity harness
          builds its PTX (same source text, same -D macros), and writes a
          manifest (configurations, launch geometry, kernel arguments).
          --compiler clang builds the binary the plugin route predicts
          instead: clang's PTX with the harness's clang options (no
          plugin), then ptxas, so that the plugin can be scored on the
          binary it reads rather than on nvcc's.
  run     (the GPU machine; Python standard library, libcuda and, for
          energy, libnvidia-ml) loads each cubin through the CUDA driver API,
          launches it on the recipe's arguments, and appends one CSV row per
          configuration in the format of ../shared/data/tuning: the
          parameters, time_ms (mean of the timed launches), times_ms_min,
          then energy_mj (per launch, from NVML's total-energy counter over
          the timed window), power_w, sm_clock_mhz, temp_c, launches.

  bench/fidelity/measure.py build --recipe bench/fidelity/kernels/gemm.json \\
        --arch sm_90 --count 600 --out build/measure/gemm
  bench/fidelity/measure.py run --manifest build/measure/gemm/manifest.json \\
        --csv gemm-H200.csv --budget 200

The sample: the fidelity harness's own draw first (seed 1: the configurations
every other GPU of the recipe is scored on), then further configurations of
the recipe's common measured space, until --count. Launch protocol: one
warm-up launch, then back-to-back launches, each timed with its own pair of
events, until --window seconds (at least --min-launches, at most
--max-launches). The card's clocks and power limit are never changed.
Kernel arguments come from the recipe's "measure_args" (see gemm.json).
"""

import argparse
import ctypes as C
import json
import math
import os
import random
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fidelity as F  # noqa: E402  (same source text, macros and launch rules)


# ---------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------

def draw(recipe, data_dir, count, seed):
    """The harness's seed draw over the recipe's common measured space,
    then more of that space (fixed order) up to count."""
    names, common = None, None
    for g in F.gpu_groups(recipe)[0]:
        names, rows = F.read_measurements(F.data_path(g, data_dir))
        common = set(rows) if common is None else common & set(rows)
    first = F.draw_sample(recipe["name"], common, 300, seed)
    rest = sorted(common - set(first))
    random.Random("%s:measure" % recipe["name"]).shuffle(rest)
    return names, (first + rest)[:count]


def cmd_build(a):
    import concurrent.futures as cf
    with open(a.recipe) as f:
        recipe = json.load(f)
    if "measure_args" not in recipe:
        sys.exit("measure.py: %s has no measure_args" % a.recipe)
    names, configs = draw(recipe, a.data, a.count, a.seed)
    os.makedirs(a.out, exist_ok=True)
    tools = F.Tools(a.out)
    ptxas = os.path.join(os.path.dirname(tools.nvcc), "ptxas")

    def compile_to(src, path, params):
        if a.compiler == "nvcc":
            F.run([tools.nvcc, "-cubin", "-w", src, "-o", path] +
                  F.nvcc_flags(recipe, params, a.arch, a.data))
            return
        # The plugin route's own compile (fidelity.clang_flags, without the
        # plugin: it never changes the code), then ptxas as a user's build
        # would run it.
        ptx = path + ".ptx"
        F.run([tools.clang] + F.clang_flags(tools, recipe, params, a.arch, a.data) +
              [src, "-o", ptx])
        F.run([ptxas, "-O3", "-arch=" + a.arch, ptx, "-o", path])
        os.remove(ptx)

    def one(i, cfg):
        params = dict(zip(names, cfg))
        block, grid = F.launch_of(recipe, params)
        path = os.path.join(a.out, "k%05d.cubin" % i)
        if not os.path.exists(path):
            src = os.path.join(a.out, "k%05d.cu" % i)
            with open(src, "w") as f:
                f.write(F.source_text(recipe, params, a.data))
            compile_to(src, path + ".tmp", params)
            os.replace(path + ".tmp", path)
            os.remove(src)
        return {"config": list(cfg), "block": block, "grid": grid,
                "cubin": os.path.basename(path)}

    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        entries = list(ex.map(lambda ic: one(*ic), enumerate(configs)))
    manifest = {"recipe": recipe["name"], "kernel": recipe["kernel"], "arch": a.arch,
                "compiler": a.compiler, "names": names, "args": recipe["measure_args"],
                "configs": entries}
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=0)
    print("measure.py: %d %s cubins for %s (%s) in %s" % (
        len(entries), a.compiler, recipe["name"], a.arch, a.out))


# ---------------------------------------------------------------------------
# run: the CUDA driver API and NVML through ctypes
# ---------------------------------------------------------------------------

def load_library(name):
    """name from the loader's path, else from the usual driver folders."""
    for path in [name, "/usr/local/nvidia/lib64/" + name, "/usr/lib/x86_64-linux-gnu/" + name,
                 "/usr/lib64/" + name]:
        try:
            return C.CDLL(path)
        except OSError:
            continue
    raise OSError("%s not found (no NVIDIA driver here?)" % name)


class Cuda:
    def __init__(self, device):
        self.lib = load_library("libcuda.so.1")
        L = self.lib
        L.cuLaunchKernel.argtypes = [C.c_void_p] + [C.c_uint] * 7 + [C.c_void_p] * 3
        L.cuMemAlloc_v2.argtypes = [C.POINTER(C.c_uint64), C.c_size_t]
        L.cuMemcpyHtoD_v2.argtypes = [C.c_uint64, C.c_void_p, C.c_size_t]
        L.cuMemsetD8_v2.argtypes = [C.c_uint64, C.c_ubyte, C.c_size_t]
        L.cuModuleLoadData.argtypes = [C.POINTER(C.c_void_p), C.c_char_p]
        L.cuModuleGetFunction.argtypes = [C.POINTER(C.c_void_p), C.c_void_p, C.c_char_p]
        L.cuModuleUnload.argtypes = [C.c_void_p]
        L.cuEventRecord.argtypes = [C.c_void_p, C.c_void_p]
        L.cuEventSynchronize.argtypes = [C.c_void_p]
        self.elapsed = getattr(L, "cuEventElapsedTime_v2", None) or L.cuEventElapsedTime
        self.elapsed.argtypes = [C.POINTER(C.c_float), C.c_void_p, C.c_void_p]
        self.check(L.cuInit(0), "cuInit")
        dev = C.c_int()
        self.check(L.cuDeviceGet(C.byref(dev), device), "cuDeviceGet")
        name = C.create_string_buffer(256)
        L.cuDeviceGetName(name, 256, dev)
        self.name = name.value.decode()
        self.ctx = C.c_void_p()
        self.check(L.cuDevicePrimaryCtxRetain(C.byref(self.ctx), dev), "cuDevicePrimaryCtxRetain")
        self.check(L.cuCtxSetCurrent(self.ctx), "cuCtxSetCurrent")
        self.events = []

    def check(self, r, what):
        if r != 0:
            s = C.c_char_p()
            self.lib.cuGetErrorString(r, C.byref(s))
            raise RuntimeError("%s: CUDA error %d (%s)" % (what, r,
                                                           (s.value or b"?").decode()))

    def alloc(self, nbytes):
        p = C.c_uint64()
        self.check(self.lib.cuMemAlloc_v2(C.byref(p), nbytes), "cuMemAlloc")
        return p.value

    def upload(self, ptr, data):
        buf = C.create_string_buffer(bytes(data), len(data))
        self.check(self.lib.cuMemcpyHtoD_v2(ptr, buf, len(data)), "cuMemcpyHtoD")

    def zero(self, ptr, nbytes):
        self.check(self.lib.cuMemsetD8_v2(ptr, 0, nbytes), "cuMemsetD8")

    def load(self, image, kernel):
        mod, fn = C.c_void_p(), C.c_void_p()
        self.check(self.lib.cuModuleLoadData(C.byref(mod), image), "cuModuleLoadData")
        self.check(self.lib.cuModuleGetFunction(C.byref(fn), mod, kernel.encode()),
                   "cuModuleGetFunction")
        return mod, fn

    def unload(self, mod):
        self.lib.cuModuleUnload(mod)

    def event(self, i):
        while len(self.events) <= i:
            e = C.c_void_p()
            self.check(self.lib.cuEventCreate(C.byref(e), 0), "cuEventCreate")
            self.events.append(e)
        return self.events[i]

    def launch(self, fn, grid, block, params):
        self.check(self.lib.cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1],
                                           block[2], 0, None, params, None), "cuLaunchKernel")

    def record(self, i):
        self.check(self.lib.cuEventRecord(self.event(i), None), "cuEventRecord")

    def sync(self):
        self.check(self.lib.cuCtxSynchronize(), "cuCtxSynchronize")

    def ms(self, i, j):
        v = C.c_float()
        self.check(self.elapsed(C.byref(v), self.event(i), self.event(j)), "cuEventElapsedTime")
        return v.value


class Nvml:
    """Energy, power, clock and temperature; every reading None if NVML is
    missing or refuses."""

    def __init__(self, index):
        self.h = None
        try:
            self.lib = load_library("libnvidia-ml.so.1")
            if self.lib.nvmlInit_v2() != 0:
                return
            h = C.c_void_p()
            if self.lib.nvmlDeviceGetHandleByIndex_v2(index, C.byref(h)) == 0:
                self.h = h
        except OSError:
            pass

    def _get(self, fn, ctype, *extra):
        if self.h is None:
            return None
        v = ctype()
        r = getattr(self.lib, fn)(self.h, *extra, C.byref(v))
        return v.value if r == 0 else None

    def energy_mj(self):
        return self._get("nvmlDeviceGetTotalEnergyConsumption", C.c_ulonglong)

    def power_w(self):
        p = self._get("nvmlDeviceGetPowerUsage", C.c_uint)
        return None if p is None else p / 1000.0

    def sm_clock(self):
        return self._get("nvmlDeviceGetClockInfo", C.c_uint, C.c_int(1))  # NVML_CLOCK_SM

    def temp(self):
        return self._get("nvmlDeviceGetTemperature", C.c_uint, C.c_int(0))  # GPU sensor

    def power_limit_w(self):
        p = self._get("nvmlDeviceGetEnforcedPowerLimit", C.c_uint)
        return None if p is None else p / 1000.0


def fill_bytes(spec):
    """Host bytes of one buffer argument: random, zero, or a per-index
    arithmetic expression of i (float32)."""
    n, elem = int(spec["count"]), spec["elem"]
    size = {"u8": 1, "i32": 4, "f32": 4}[elem]
    fill = spec.get("fill", "zero")
    if fill == "zero":
        return None, n * size
    if fill == "random":
        rng = random.Random(spec.get("seed", 1))
        if elem == "u8":
            return rng.randbytes(n), n
        bits = int.from_bytes(rng.randbytes(4 * n), "little")
        if elem == "f32":  # uniform in [1, 2): random mantissa, exponent 0 (no NaN)
            bits = (bits & int.from_bytes(b"\xff\xff\x7f\x00" * n, "little")) | \
                int.from_bytes(b"\x00\x00\x80\x3f" * n, "little")
        else:  # i32 in [0, 2^16)
            bits &= int.from_bytes(b"\xff\xff\x00\x00" * n, "little")
        return bits.to_bytes(4 * n, "little"), 4 * n
    if fill == "expr":
        code = compile(spec["expr"], "<measure_args>", "eval")
        env = {"__builtins__": {}}
        vals = [eval(code, env, {"i": i}) for i in range(n)]
        fmt = {"f32": "f", "i32": "i", "u8": "B"}[elem]
        return struct.pack("<%d%s" % (n, fmt), *vals), n * size
    raise ValueError("unknown fill '%s'" % fill)


def make_args(cuda, specs):
    """ctypes storage of each argument and the void*[] cuLaunchKernel takes."""
    store = []
    for s in specs:
        t = s["type"]
        if t == "buffer":
            data, nbytes = fill_bytes(s)
            ptr = cuda.alloc(nbytes)
            if data is None:
                cuda.zero(ptr, nbytes)
            else:
                cuda.upload(ptr, data)
            store.append(C.c_uint64(ptr))
        elif t == "i32":
            store.append(C.c_int32(int(s["value"])))
        elif t == "f32":
            store.append(C.c_float(float(s["value"])))
        else:
            raise ValueError("unknown argument type '%s'" % t)
    arr = (C.c_void_p * len(store))(*[C.addressof(v) for v in store])
    return store, arr, C.cast(arr, C.c_void_p)


def cmd_run(a):
    with open(a.manifest) as f:
        man = json.load(f)
    folder = os.path.dirname(os.path.abspath(a.manifest))
    cuda = Cuda(a.device)
    nvml = Nvml(a.device)
    store, keep, params = make_args(cuda, man["args"])
    cuda.sync()
    print("measure.py: %s on %s, power limit %s W, %d configurations" % (
        man["recipe"], cuda.name, nvml.power_limit_w(), len(man["configs"])), flush=True)
    start = time.time()
    new = not os.path.exists(a.csv)
    out = open(a.csv, "a")
    if new:
        out.write(",".join(man["names"] + ["time_ms", "times_ms_min", "energy_mj", "power_w",
                                          "sm_clock_mhz", "temp_c", "launches"]) + "\n")
    done = failed = 0
    for e in man["configs"]:
        if time.time() - start > a.budget:
            print("measure.py: budget spent after %d configurations" % done, flush=True)
            break
        try:
            with open(os.path.join(folder, e["cubin"]), "rb") as f:
                mod, fn = cuda.load(f.read(), man["kernel"])
            try:
                cuda.record(0)
                cuda.launch(fn, e["grid"], e["block"], params)  # warm-up
                cuda.record(1)
                cuda.sync()
                warm = cuda.ms(0, 1) / 1000.0
                n = max(a.min_launches, min(a.max_launches, math.ceil(a.window / max(warm, 1e-6))))
                e0, t0 = nvml.energy_mj(), time.time()
                for i in range(n):
                    cuda.record(i)
                    cuda.launch(fn, e["grid"], e["block"], params)
                cuda.record(n)
                cuda.sync()
                t1, e1 = time.time(), nvml.energy_mj()
                ts = [cuda.ms(i, i + 1) for i in range(n)]
                energy = "" if e0 is None or e1 is None else "%.3f" % ((e1 - e0) / n)
                power = "" if e0 is None or e1 is None or t1 <= t0 else \
                    "%.1f" % ((e1 - e0) / 1000.0 / (t1 - t0))
                clock, temp = nvml.sm_clock(), nvml.temp()
                out.write(",".join(str(v) for v in e["config"]) + ",%.6f,%.6f,%s,%s,%s,%s,%d\n" % (
                    sum(ts) / n, min(ts), energy, power, "" if clock is None else clock,
                    "" if temp is None else temp, n))
                out.flush()
                done += 1
            finally:
                cuda.unload(mod)
        except Exception as ex:  # one configuration failing keeps the others
            failed += 1
            print("measure.py: %s %s: %s" % (man["recipe"], e["config"], ex), flush=True)
            if failed > 20 and done == 0:
                sys.exit("measure.py: nothing runs; giving up")
    out.close()
    print("measure.py: %s: %d measured, %d failed, %.0f s" % (man["recipe"], done, failed,
                                                             time.time() - start), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="draw and compile (no GPU)")
    b.add_argument("--recipe", required=True)
    b.add_argument("--data", default=F.DEFAULT_DATA)
    b.add_argument("--arch", required=True, help="e.g. sm_90")
    b.add_argument("--count", type=int, default=300)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--jobs", type=int, default=2)
    b.add_argument("--out", required=True)
    b.add_argument("--compiler", choices=["nvcc", "clang"], default="nvcc",
                   help="nvcc (the PTX route's binary, default) or clang + ptxas "
                        "(the plugin route's)")
    r = sub.add_parser("run", help="measure on the GPU")
    r.add_argument("--manifest", required=True)
    r.add_argument("--csv", required=True, help="appended to")
    r.add_argument("--device", type=int, default=0)
    r.add_argument("--budget", type=float, default=300, help="seconds")
    r.add_argument("--window", type=float, default=0.2, help="timed seconds per configuration")
    r.add_argument("--min-launches", type=int, default=3)
    r.add_argument("--max-launches", type=int, default=100)
    a = ap.parse_args()
    try:
        (cmd_build if a.cmd == "build" else cmd_run)(a)
    except (OSError, RuntimeError, ValueError, KeyError) as e:  # one line, no traceback
        sys.exit("measure.py: %s" % e)


if __name__ == "__main__":
    main()
