#!/usr/bin/env python3
"""FlipFlop compile-overhead benchmark (python3 standard library only).

Compiles a corpus of CUDA sources with clang++ 22 at -O2, with and without
the FlipFlop plugin, and reports per configuration the median ratio to the
baseline (no plugin) of

  - wall time     (time.perf_counter around the whole driver invocation),
  - CPU time      (user + system of the driver and every process it waited
                   for: cc1, ptxas, fatbinary, and whatever the plugin runs;
                   from os.wait4's rusage), far less sensitive than wall time
                   to other load on a shared machine,
  - peak memory   (ru_maxrss from the same rusage: the largest resident set of
                   any single process of the compile's tree; clang runs cc1
                   in-process, so this is the compiler's own peak).

Configurations (environment variables select the plugin's components, so the
command line is the same for all plugin runs):

  baseline   no plugin
  default    -fpass-plugin=FlipFlop.so, default options (in-process PTX
             analysis on, ptxas off: the plugin's default)
  ptx-off    the same with FLIPFLOP_PTX=off   (= -mllvm -flipflop-ptx=off)
  ptxas-on   the same with FLIPFLOP_PTXAS=on  (= -mllvm -flipflop-ptxas=on)
  ir-only    PTX analysis and ptxas off (optional, --configs)

Rounds alternate the configurations compile by compile: for each file, each
configuration is compiled back to back (ABAB...), and the order rotates from
round to round, so slow drifts of the machine's load hit all configurations
alike. A round's figure for a configuration is its total over the corpus; the
reported ratio is the median over rounds of the per-round ratio, with the
smallest and largest round ratio as the spread.

Before timing, a preflight checks each file: the plugin is active (a
device-only compile with -Rpass-analysis=flipflop must print FlipFlop
remarks), the device PTX with the plugin is byte-identical to the baseline's,
and the plugin's ptxas runs are counted (FLIPFLOP_PTXAS pointed at a counting
wrapper). One untimed warm-up compile per table and configuration follows.

The components nest: ptxas needs the emitted PTX, so ptx-off also turns ptxas
off. Hence the shares: IR analysis + model + remarks = ptx-off - baseline;
in-process PTX parse = default - ptx-off; ptxas when turned on (one -v run
plus one run per register cap the Pareto front proposes) = ptxas-on - default.

Writes a JSON file with every sample (--json) and a Markdown fragment with the
tables (--markdown). Exit status 1 on a failed compile or check.
"""
import argparse
import datetime
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

CONFIGS = {
    "baseline": {"plugin": False, "env": {}},
    "default": {"plugin": True, "env": {}},
    "ptx-off": {"plugin": True, "env": {"FLIPFLOP_PTX": "off"}},
    "ptxas-on": {"plugin": True, "env": {"FLIPFLOP_PTXAS": "on"}},
    "ir-only": {"plugin": True,
                "env": {"FLIPFLOP_PTX": "off"}},
}
CONFIG_HELP = {
    "baseline": "no plugin",
    "default": "plugin, default options",
    "ptx-off": "plugin, in-process PTX analysis off (FLIPFLOP_PTX=off)",
    "ptxas-on": "plugin, ptxas on (FLIPFLOP_PTXAS=on)",
    "ir-only": "plugin, PTX analysis and ptxas off",
}

SYNTHETIC = ["many_kernels.cu", "templates.cu", "unrolled.cu"]
# Examples compiled in default mode. A full compile of an example costs 3-12 s
# of CPU, mostly its host driver, so the default takes one typical one (a
# block reduction with its host driver) to stay near ten minutes on two
# cores; --examples all takes every one (about 18 x 4 x ~8 s per round).
DEFAULT_EXAMPLES = ["reduction"]
QUICK_EXAMPLES = []

# (mode, archs, configs) of each table; "all" = the --configs list.
DEFAULT_TABLES = [
    ("full", ("sm_80",), "all"),
    ("full", ("sm_80", "sm_90"), ("baseline", "default")),
    ("device", ("sm_80",), "all"),
]
QUICK_TABLES = [
    ("full", ("sm_80",), "all"),
    ("full", ("sm_80", "sm_90"), ("baseline", "default")),
]


def log(msg):
    print(f"[compile-overhead] {msg}", file=sys.stderr, flush=True)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--plugin", default=None, help="path of FlipFlop.so")
    p.add_argument("--render", default=None, metavar="JSON",
                   help="only write the Markdown of an earlier --json file")
    p.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    p.add_argument("--cuda-path", default="/usr/local/cuda")
    p.add_argument("--rounds", type=int, default=None,
                   help="timed rounds (default 5; 3 with --quick)")
    p.add_argument("--quick", action="store_true",
                   help="3 rounds, smaller corpus, fewer tables")
    p.add_argument("--examples", default=None,
                   help="comma-separated example names, 'all' or 'none' "
                        "(default: %s; quick: %s)" %
                        (",".join(DEFAULT_EXAMPLES), ",".join(QUICK_EXAMPLES)))
    p.add_argument("--no-synthetic", action="store_true",
                   help="leave out the generated corpus/ sources")
    p.add_argument("--configs", default="baseline,default,ptx-off,ptxas-on",
                   help="configurations for the full tables (%s)" %
                        ", ".join(CONFIGS))
    p.add_argument("--tables", default=None,
                   help="e.g. 'full:sm_80,full:sm_80+sm_90,device:sm_80' "
                        "(all use --configs)")
    p.add_argument("--work-dir", default=None,
                   help="scratch directory (default: a temporary one)")
    p.add_argument("--json", dest="json_out", default=None,
                   help="write every sample here")
    p.add_argument("--markdown", default=None,
                   help="write the Markdown tables here")
    a = p.parse_args(argv)
    if a.rounds is None:
        a.rounds = 3 if a.quick else 5
    if a.plugin is None and a.render is None:
        p.error("--plugin is required")
    if a.plugin:
        a.plugin = os.path.abspath(a.plugin)
    if a.rounds < 1:
        p.error("--rounds must be >= 1")
    a.configs = [c.strip() for c in a.configs.split(",") if c.strip()]
    for c in a.configs:
        if c not in CONFIGS:
            p.error(f"unknown configuration '{c}'")
    if "baseline" not in a.configs:
        a.configs.insert(0, "baseline")
    if a.tables:
        tables = []
        for t in a.tables.split(","):
            mode, _, archs = t.partition(":")
            if mode not in ("full", "device") or not archs:
                p.error(f"bad table '{t}': expected full|device:sm_XX[+sm_YY]")
            tables.append((mode, tuple(archs.split("+")), "all"))
        a.table_specs = tables
    else:
        a.table_specs = QUICK_TABLES if a.quick else DEFAULT_TABLES
    return a


def corpus_files(a):
    files = []
    if not a.no_synthetic:
        subprocess.run([sys.executable, os.path.join(HERE, "gen_corpus.py")],
                       check=True, stdout=subprocess.DEVNULL)
        files += [os.path.join(HERE, "corpus", f) for f in SYNTHETIC]
    ex_dir = os.path.join(ROOT, "examples")
    if a.examples is None:
        names = QUICK_EXAMPLES if a.quick else DEFAULT_EXAMPLES
    elif a.examples == "none":
        names = []
    elif a.examples == "all":
        names = sorted(f[:-3] for f in os.listdir(ex_dir) if f.endswith(".cu"))
    else:
        names = [n.strip() for n in a.examples.split(",") if n.strip()]
    for n in names:
        path = os.path.join(ex_dir, n + ".cu")
        if not os.path.exists(path):
            sys.exit(f"compile-overhead: no example '{n}' ({path})")
        files.append(path)
    if not files:
        sys.exit("compile-overhead: empty corpus")
    return files


def base_flags(a):
    # The flags examples/CMakeLists.txt uses for the example binaries.
    return ["-x", "cuda", f"--cuda-path={a.cuda_path}",
            "--no-offload-new-driver", "-Wno-unknown-cuda-version", "-O2",
            "-std=c++17", "-I" + os.path.join(ROOT, "examples")]


def command(a, mode, archs, config, src, out_dir, extra=()):
    cmd = [a.clang] + base_flags(a)
    cmd += [f"--cuda-gpu-arch={x}" for x in archs]
    if CONFIGS[config]["plugin"]:
        cmd.append(f"-fpass-plugin={a.plugin}")
    cmd += list(extra)
    stem = os.path.splitext(os.path.basename(src))[0]
    if mode == "full":
        cmd += ["-c", src, "-o", os.path.join(out_dir, stem + ".o")]
    else:
        # Several archs give several .s files: no -o, they land in out_dir.
        cmd += ["--cuda-device-only", "-S", src]
        if len(archs) == 1:
            cmd += ["-o", os.path.join(out_dir, stem + ".s")]
    return cmd


def environment(config):
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLIPFLOP_")}
    env.update(CONFIGS[config]["env"])
    env["LC_ALL"] = "C"
    return env


def run_measured(cmd, env, cwd, err_path):
    """Runs cmd; returns (wall s, cpu s, max rss KiB)."""
    with open(err_path, "wb") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        with open(err_path, errors="replace") as f:
            tail = f.read()[-2000:]
        raise RuntimeError(f"compile failed ({p.returncode}): "
                           f"{' '.join(cmd)}\n{tail}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


PTXAS_WRAPPER = """#!/bin/sh
# Counts the plugin's ptxas runs (written by compile_overhead.py).
echo "$*" >> "$FLIPFLOP_BENCH_PTXAS_LOG"
exec "$FLIPFLOP_BENCH_REAL_PTXAS" "$@"
"""


def preflight(a, files, work):
    """Plugin active (remarks), PTX byte-identical with/without it, and how
    many times the plugin runs ptxas (through a counting wrapper)."""
    info = {}
    d = os.path.join(work, "preflight")
    os.makedirs(d, exist_ok=True)
    wrapper = os.path.join(d, "ptxas-counter.sh")
    with open(wrapper, "w") as f:
        f.write(PTXAS_WRAPPER)
    os.chmod(wrapper, 0o755)
    log_path = os.path.join(d, "ptxas-runs.txt")
    for src in files:
        stem = os.path.splitext(os.path.basename(src))[0]
        outs = {}
        remarks = []
        runs = []
        for config in ("baseline", "default"):
            out = os.path.join(d, f"{stem}.{config}.s")
            cmd = [a.clang] + base_flags(a) + ["--cuda-gpu-arch=sm_80",
                                               "--cuda-device-only", "-S", src,
                                               "-o", out]
            env = environment(config)
            if config == "default":
                cmd.insert(1, f"-fpass-plugin={a.plugin}")
                cmd.append("-Rpass-analysis=flipflop")
                env["FLIPFLOP_PTXAS"] = wrapper
                env["FLIPFLOP_BENCH_PTXAS_LOG"] = log_path
                env["FLIPFLOP_BENCH_REAL_PTXAS"] = os.path.join(
                    a.cuda_path, "bin", "ptxas")
                if os.path.exists(log_path):
                    os.remove(log_path)
            r = subprocess.run(cmd, env=env, cwd=d, capture_output=True,
                               text=True)
            if r.returncode != 0:
                raise RuntimeError(f"preflight compile failed: {' '.join(cmd)}"
                                   f"\n{r.stderr[-2000:]}")
            outs[config] = out
            if config == "default":
                remarks = [l for l in r.stderr.splitlines()
                           if "[-Rpass-analysis=flipflop]" in l]
                if not remarks:
                    raise RuntimeError(f"the plugin printed no remark for {src}:"
                                       " is it loaded?")
                if os.path.exists(log_path):
                    with open(log_path) as f:
                        runs = [l.split() for l in f if l.strip()]
        with open(outs["baseline"]) as f:
            kernels = sum(1 for l in f if re.match(
                r"\s*(\.visible\s+|\.weak\s+)?\.entry\s", l))
        same = sha(outs["baseline"]) == sha(outs["default"])
        if not same:
            raise RuntimeError(f"PTX of {src} differs with the plugin")
        caps = sorted({int(x.split("=", 1)[1]) for r_ in runs for x in r_
                       if x.startswith("-maxrregcount=")})
        info[os.path.relpath(src, ROOT)] = {
            "kernels_sm80": kernels,
            "ptx_bytes_sm80": os.path.getsize(outs["baseline"]),
            "remark_lines": len(remarks),
            "ptx_identical": same,
            "plugin_ptxas_runs": len(runs),
            "plugin_ptxas_caps": caps,
        }
    return info


def table_configs(spec, configs):
    return list(configs) if spec == "all" else [c for c in spec]


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def main(argv):
    a = parse_args(argv)
    if a.render:
        with open(a.render) as f:
            md = markdown(json.load(f), a)
        if a.markdown:
            with open(a.markdown, "w") as f:
                f.write(md)
        else:
            sys.stdout.write(md)
        return 0
    for tool in (a.clang, a.plugin):
        if not os.path.exists(tool):
            sys.exit(f"compile-overhead: not found: {tool}")
    files = corpus_files(a)
    work = a.work_dir or tempfile.mkdtemp(prefix="flipflop-bench-")
    os.makedirs(work, exist_ok=True)
    out_dir = os.path.join(work, "out")
    os.makedirs(out_dir, exist_ok=True)
    err_path = os.path.join(work, "stderr.txt")
    tables = [(m, archs, table_configs(cs, a.configs))
              for m, archs, cs in a.table_specs]

    log(f"corpus: {len(files)} files; rounds: {a.rounds}; tables: "
        + "; ".join(f"{m} {'+'.join(x)} x{len(c)}" for m, x, c in tables))
    started = time.time()
    log("preflight: plugin active, PTX byte-identical")
    pre = preflight(a, files, work)

    # Warm-up (untimed): the first file once per table and configuration
    # (fatbinary, ptxas and the plugin in the page cache; the preflight has
    # already read every source and header).
    for mode, archs, configs in tables:
        for c in configs:
            run_measured(command(a, mode, archs, c, files[0], out_dir),
                         environment(c), out_dir, err_path)

    # samples[(mode, archs)][config][file] = list of (wall, cpu, rss)
    samples = {}
    for r in range(a.rounds):
        t_round = time.time()
        for mode, archs, configs in tables:
            key = (mode, archs)
            samples.setdefault(key, {c: {f: [] for f in files} for c in configs})
            k = r % len(configs)
            order = configs[k:] + configs[:k]  # rotate: ABAB.., BABA..
            for src in files:
                for c in order:
                    samples[key][c][src].append(run_measured(
                        command(a, mode, archs, c, src, out_dir),
                        environment(c), out_dir, err_path))
        spent = time.time() - t_round
        log(f"round {r + 1}/{a.rounds}: {spent:.0f} s wall"
            + (f"; about {spent * (a.rounds - r - 1) / 60:.1f} min to go"
               if r + 1 < a.rounds else ""))
    elapsed = time.time() - started

    results = []
    for mode, archs, configs in tables:
        s = samples[(mode, archs)]
        # Per round: totals over the corpus (wall, cpu) and peak RSS.
        def round_totals(c, r):
            vals = [s[c][f][r] for f in files]
            return (sum(v[0] for v in vals), sum(v[1] for v in vals),
                    max(v[2] for v in vals))
        base = [round_totals("baseline", r) for r in range(a.rounds)]
        rows = []
        for c in configs:
            tot = [round_totals(c, r) for r in range(a.rounds)]
            wr = [t[0] / b[0] for t, b in zip(tot, base)]
            cr = [t[1] / b[1] for t, b in zip(tot, base)]
            mr = [t[2] / b[2] for t, b in zip(tot, base)]
            per_file_rss = [median([s[c][f][r][2] / s["baseline"][f][r][2]
                                    for r in range(a.rounds)]) for f in files]
            per_file_cpu = {os.path.relpath(f, ROOT): median(
                [s[c][f][r][1] / s["baseline"][f][r][1]
                 for r in range(a.rounds)]) for f in files}
            rows.append({
                "config": c,
                "wall_s": median([t[0] for t in tot]),
                "cpu_s": median([t[1] for t in tot]),
                "peak_rss_mib": median([t[2] for t in tot]) / 1024,
                "wall_ratio": median(wr), "wall_ratio_min": min(wr),
                "wall_ratio_max": max(wr),
                "cpu_ratio": median(cr), "cpu_ratio_min": min(cr),
                "cpu_ratio_max": max(cr),
                "rss_ratio": median(mr),
                "rss_ratio_max_file": max(per_file_rss),
                "cpu_ratio_per_file": per_file_cpu,
            })
        results.append({"mode": mode, "archs": list(archs), "rows": rows})

    import resource
    report = {
        "rss_floor_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "rounds": a.rounds, "quick": a.quick,
        "clang": a.clang, "plugin": a.plugin,
        "flags": base_flags(a),
        "files": [os.path.relpath(f, ROOT) for f in files],
        "preflight": pre, "elapsed_s": elapsed,
        "results": results,
        "samples": {f"{m}:{'+'.join(x)}": {c: {os.path.relpath(f, ROOT): v
                                                  for f, v in fs.items()}
                                           for c, fs in s.items()}
                    for (m, x), s in samples.items()},
    }
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(report, f, indent=1)
    md = markdown(report, a)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(md)
    else:
        sys.stdout.write(md)
    if not a.work_dir:
        shutil.rmtree(work, ignore_errors=True)
    log(f"done in {elapsed / 60:.1f} min")
    return 0


def pct(r):
    return f"{(r - 1) * 100:+.1f}%"


def pts(x):
    return f"{x * 100:+.1f} points"


def markdown(rep, a):
    L = []
    L.append(f"Rounds: {rep['rounds']} (configurations alternated compile by "
             f"compile, order rotated each round); benchmark time "
             f"{rep['elapsed_s'] / 60:.1f} min.\n")
    if "rss_floor_mib" in rep:
        L.append("Peak RSS cannot read below the benchmark's own python "
                 f"process ({rep['rss_floor_mib']:.0f} MiB), which starts the "
                 "compiles.\n")
    L.append("Corpus (kernels, PTX size and the plugin's ptxas runs for a "
             "device-only sm_80 compile; every file's PTX was checked "
             "byte-identical with and without the plugin):\n")
    L.append("| file | kernels | PTX (KiB) | FlipFlop remark lines | "
             "ptxas runs by the plugin | register caps tried |")
    L.append("|---|---:|---:|---:|---:|---|")
    for f, i in rep["preflight"].items():
        caps = ", ".join(str(c) for c in i["plugin_ptxas_caps"]) or "-"
        L.append(f"| `{f}` | {i['kernels_sm80']} | "
                 f"{i['ptx_bytes_sm80'] / 1024:.0f} | {i['remark_lines']} | "
                 f"{i['plugin_ptxas_runs']} | {caps} |")
    L.append("")
    L.append("Configurations: " + "; ".join(
        f"**{c}**: {CONFIG_HELP[c]}" for c in CONFIGS
        if any(r["config"] == c for t in rep["results"] for r in t["rows"]))
        + ".\n")
    for t in rep["results"]:
        what = ("full compile `-c` (host + device, ptxas, fatbinary)"
                if t["mode"] == "full" else
                "device only `--cuda-device-only -S`")
        L.append(f"#### {what}, {' + '.join(t['archs'])}\n")
        L.append("| configuration | wall (s) | wall ratio [min, max] | "
                 "CPU (s) | CPU ratio [min, max] | peak RSS (MiB) | "
                 "RSS ratio | worst file RSS ratio |")
        L.append("|---|---:|---:|---:|---:|---:|---:|---:|")
        for r in t["rows"]:
            L.append(
                f"| {r['config']} | {r['wall_s']:.2f} | "
                f"{pct(r['wall_ratio'])} [{pct(r['wall_ratio_min'])}, "
                f"{pct(r['wall_ratio_max'])}] | {r['cpu_s']:.2f} | "
                f"{pct(r['cpu_ratio'])} [{pct(r['cpu_ratio_min'])}, "
                f"{pct(r['cpu_ratio_max'])}] | {r['peak_rss_mib']:.0f} | "
                f"{pct(r['rss_ratio'])} | {pct(r['rss_ratio_max_file'])} |")
        by = {r["config"]: r for r in t["rows"]}
        if "default" in by:
            d = by["default"]
            parts = []
            if "ptx-off" in by:
                parts.append("IR analysis + model + remarks "
                             + pts(by["ptx-off"]["cpu_ratio"] - 1))
                parts.append("in-process PTX parse " + pts(
                    d["cpu_ratio"] - by["ptx-off"]["cpu_ratio"]))
            if "ptxas-on" in by:
                parts.append("ptxas, when turned on, would add " + pts(
                    by["ptxas-on"]["cpu_ratio"] - d["cpu_ratio"]))
            if parts:
                L.append("\nWhere the default configuration's CPU overhead ("
                         f"{pct(d['cpu_ratio'])}) goes: " + ", ".join(parts)
                         + ".")
            worst = sorted(d["cpu_ratio_per_file"].items(), key=lambda kv: -kv[1])
            L.append("Per file, default vs baseline (median CPU ratio): " +
                     ", ".join(f"`{os.path.basename(f)}` {pct(v)}"
                               for f, v in worst) + ".")
            if t["mode"] == "full":
                ok_w = d["wall_ratio"] <= 1.03
                ok_c = d["cpu_ratio"] <= 1.03
                ok_m = d["rss_ratio"] <= 1.05
                ok_mf = d["rss_ratio_max_file"] <= 1.05
                def verdict(ok):
                    return "met" if ok else "**not met**"
                L.append(
                    "Targets, default vs baseline: wall time <= +3%: "
                    f"{pct(d['wall_ratio'])}, {verdict(ok_w)} (CPU time "
                    f"{pct(d['cpu_ratio'])}, {verdict(ok_c)}); peak memory "
                    f"<= +5%: corpus peak {pct(d['rss_ratio'])}, "
                    f"{verdict(ok_m)}; worst single file "
                    f"{pct(d['rss_ratio_max_file'])}, {verdict(ok_mf)}.")
        L.append("")
    return "\n".join(L) + "\n"


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except RuntimeError as e:
        print(f"compile-overhead: error: {e}", file=sys.stderr)
        sys.exit(1)
