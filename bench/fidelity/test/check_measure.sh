#!/usr/bin/env bash
# ctest fidelity.measure: measure.py without a GPU. "build" draws and
# compiles four gemm configurations to cubins, with nvcc and with clang +
# ptxas; "run" measures them through a
# stand-in driver (fake_cuda.c, which fails any call whose arguments a real
# driver would reject); the harness then scores the CSV as a GPU measured
# here ("measured" in a recipe), sampled on its own.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
data=${FLIPFLOP_TUNING_DATA:-$here/../../../../shared/data/tuning}
[ -d "$data/gemm/src" ] || { echo "fidelity.measure: no tuning data at $data"; exit 77; }
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || { echo "fidelity.measure: no nvcc"; exit 77; }
export PATH=$PATH:/usr/local/cuda/bin
cc=${CC:-$(command -v cc || command -v gcc || command -v clang || true)}
[ -n "$cc" ] || { echo "fidelity.measure: no C compiler"; exit 77; }
work=$build/fidelity-measure
rm -rf "$work" && mkdir -p "$work/lib"
"$cc" -shared -fPIC -O1 -o "$work/lib/libcuda.so.1" "$here/fake_cuda.c"
cp "$work/lib/libcuda.so.1" "$work/lib/libnvidia-ml.so.1"

python3 "$here/../measure.py" build --recipe "$here/../kernels/gemm.json" --data "$data" \
  --arch sm_80 --count 4 --out "$work/gemm"
LD_LIBRARY_PATH=$work/lib python3 "$here/../measure.py" run \
  --manifest "$work/gemm/manifest.json" --csv "$work/gemm.csv" --window 0.001
cat "$work/gemm.csv"
python3 - "$work/gemm.csv" "$work/gemm/manifest.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
man = json.load(open(sys.argv[2]))
assert len(rows) == 4, "expected 4 measured rows, got %d" % len(rows)
for r, e in zip(rows, man["configs"]):
    # The stand-in's launch takes (blocks / 1e5) ms: the row must be the
    # configuration's own grid, and the energy the counter's 100 mJ per
    # window spread over the window's launches.
    want = e["grid"][0] * e["grid"][1] / 1e5
    assert abs(float(r["time_ms"]) - want) < 1e-6 * max(1, want), (r, e)
    assert [int(r[n]) for n in man["names"]] == e["config"], (r, e)
    n = int(r["launches"])
    assert n >= 3 and abs(float(r["energy_mj"]) - 100.0 / n) < 1e-2, r
    assert r["sm_clock_mhz"] == "1410" and r["temp_c"] == "50", r
print("fidelity.measure: rows match their configurations")
PY

# The binary the plugin route predicts: clang's PTX (the harness's clang
# options) through ptxas; the same configurations, in the same order.
python3 "$here/../measure.py" build --recipe "$here/../kernels/gemm.json" --data "$data" \
  --arch sm_80 --count 4 --out "$work/gemm-clang" --compiler clang
LD_LIBRARY_PATH=$work/lib python3 "$here/../measure.py" run \
  --manifest "$work/gemm-clang/manifest.json" --csv "$work/gemm-clang.csv" --window 0.001
python3 - "$work/gemm/manifest.json" "$work/gemm-clang/manifest.json" "$work/gemm-clang.csv" <<'PY'
import csv, json, sys
nv, cl = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert cl["compiler"] == "clang" and nv["compiler"] == "nvcc", (nv["compiler"], cl["compiler"])
assert [e["config"] for e in cl["configs"]] == [e["config"] for e in nv["configs"]]
assert len(list(csv.DictReader(open(sys.argv[3])))) == 4
print("fidelity.measure: clang's cubins measured, same configurations")
PY

# The harness on those CSVs: a recipe whose only GPU was measured here,
# nvcc's binary scored for the PTX route, clang's for the plugin.
mkdir -p "$work/recipes"
python3 - "$here/../kernels/gemm.json" "$work/gemm.csv" "$work/gemm-clang.csv" \
    "$work/recipes/gemm.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["gpus"] = [{"measured": sys.argv[2], "gpu": "A100-PCIE-40GB", "arch": "sm_80",
              "frontends": ["ptx"]},
             {"measured": sys.argv[3], "gpu": "A100-PCIE-40GB", "arch": "sm_80",
              "label": "A100-clang", "frontends": ["plugin"]}]
json.dump(r, open(sys.argv[4], "w"))
PY
out=$(python3 "$here/../fidelity.py" --build "$build" --work "$work/cache" --data "$data" \
  --recipes "$work/recipes" --sample 300 --frontends ptx,plugin --jobs 2)
echo "$out"
echo "$out" | grep -Eq '^\| gemm \| A100-PCIE-40GB \| ptx \| 4 \| -?[0-9]' || {
  echo "fidelity.measure: expected the 4 measured rows scored"; exit 1; }
echo "$out" | grep -Eq '^\| gemm \| A100-clang \| plugin \| 4 \| -?[0-9]' || {
  echo "fidelity.measure: expected clang's 4 measured rows scored for the plugin"; exit 1; }
[ "$(echo "$out" | grep -c '^| gemm |')" -eq 2 ] || {
  echo "fidelity.measure: expected exactly one route per measured binary"; exit 1; }

# No driver: one line, not a traceback.
if msg=$(LD_LIBRARY_PATH=/nonexistent python3 "$here/../measure.py" run \
      --manifest "$work/gemm/manifest.json" --csv "$work/none.csv" 2>&1); then
  [ -e /usr/local/nvidia ] || ls /usr/lib/x86_64-linux-gnu/libcuda.so.1 >/dev/null 2>&1 || {
    echo "fidelity.measure: ran without a driver?"; exit 1; }
else
  echo "$msg"
  [ "$(echo "$msg" | wc -l)" -eq 1 ] && echo "$msg" | grep -q "libcuda.so.1 not found" || {
    echo "fidelity.measure: expected a one-line error without a driver"; exit 1; }
fi
echo "fidelity.measure: ok"
