#!/usr/bin/env bash
# ctest fidelity.implementations: bench/fidelity/heldout/implementations.py.
# Every set's kernels.json names a file, a launch and a measurement for each
# kernel, and without its fetched sources the script says what to fetch in
# one line; a hand-made set of two kernels (a copy and a copy behind a
# one-thread check, measured as times with a kernel's own arguments) runs
# through both front ends and is scored.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../heldout/implementations.py
build=$(cd "$1" && pwd)
work=$build/fidelity-implementations
rm -rf "$work" && mkdir -p "$work/empty" "$work/set/src"
for spec in "$here"/../heldout/*/kernels.json; do
  set_dir=$(dirname "$spec")
  python3 - "$spec" <<'PY'
import json, sys
spec = json.load(open(sys.argv[1]))
for k in ("repository", "gpu", "arch", "kernels"):
    assert k in spec, "%s: no %s" % (sys.argv[1], k)
for k in spec["kernels"]:
    assert k["file"] and len(k["block"]) == 3 and len(k["grid"]) == 3, k
    assert sum(x in k for x in ("ns", "gflops", "tflops")) == 1, k
    assert "call" not in k or spec.get("signature"), k
PY
  if out=$(python3 "$tool" "$set_dir" --build "$build" --src "$work/empty" 2>&1); then
    echo "fidelity.implementations: $set_dir ran without its sources"; exit 1
  fi
  echo "$out"
  [ "$(echo "$out" | wc -l)" -eq 1 ] && echo "$out" | grep -q "fetch them from" ||
    { echo "fidelity.implementations: no one-line fetch message for $set_dir"; exit 1; }
done
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || { echo "fidelity.implementations: no nvcc"; exit 77; }
export PATH=$PATH:/usr/local/cuda/bin
cat > "$work/set/src/copy.cu" <<'CU'
__global__ void copy(const float *in, float *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
CU
cat > "$work/set/src/first.cu" <<'CU'
__global__ void first(const float *in, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}
CU
cat > "$work/set/kernels.json" <<'JSON'
{"repository": "hand-made", "gpu": "A100-PCIE-40GB", "arch": "sm_80", "args": {},
 "kernels": [
  {"name": "copy", "file": "copy.cu", "block": [256, 1, 1], "grid": [65536, 1, 1], "ns": 110000},
  {"name": "first", "file": "first.cu", "block": [256, 1, 1], "grid": [65536, 1, 1], "args": {"2": 16777216}, "ns": 60000}
 ]}
JSON
out=$(python3 "$tool" "$work/set" --build "$build" --json "$work/out.json")
echo "$out"
python3 - "$work/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["name"]: r for r in d["rows"]}
assert abs(rows["copy"]["measured"] - 0.11) < 1e-9, rows["copy"]
for fe in ("ptx", "plugin"):
    c, f = rows["copy"][fe], rows["first"][fe]
    # 128 MB read and written against 64 MB read: the check on the thread
    # does not scale the load's bytes (about half the copy's time).
    assert c and f and 0.35 < f / c < 0.75, (fe, c, f)
assert d["summary"]["ptx"]["n"] == 2 and d["summary"]["plugin"]["n"] == 2, d["summary"]
PY
