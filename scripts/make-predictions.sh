#!/usr/bin/env bash
# Writes FlipFlop's predictions for the example kernels that have an args file
# (tools/flipflop-measure/args/<example>.json), together with the exact PTX
# they were made from, so that scripts/gpu-validate.sh can measure the same
# code on a GPU machine that has no LLVM:
#
#   bench/predictions/<example>.json      flipflop-ptx --json report
#   bench/predictions/ptx/<example>.ptx   the sm_90 PTX it describes
#
# Usage: scripts/make-predictions.sh [BUILD_DIR] [OUT_DIR] [GPU]
#   BUILD_DIR  a configured FlipFlop build (default: build)
#   OUT_DIR    default: bench/predictions
#   GPU        database name for flipflop-ptx --gpu (default: H200)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
OUT=${2:-$ROOT/bench/predictions}
GPU=${3:-H200}
ARGS_DIR=$ROOT/tools/flipflop-measure/args

if [ ! -f "$BUILD/build.ninja" ] && [ ! -f "$BUILD/Makefile" ]; then
  echo "make-predictions: $BUILD is not a configured build (cmake -S $ROOT -B $BUILD -G Ninja)" >&2
  exit 1
fi
cmake --build "$BUILD" --target flipflop-ptx examples-ptx -- -j1 >/dev/null
mkdir -p "$OUT/ptx"

# Problem size of an args file as flipflop-ptx options: a fixed grid, or
# the total thread count.
size_opts() {
  python3 - "$1" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
if "grid" in a:
    g = a["grid"] + [1] * (3 - len(a["grid"]))
    print("--grid=%d,%d,%d" % tuple(g))
else:
    t = a.get("total_threads", 0)
    n = 1
    for d in (t if isinstance(t, list) else [t]):
        n *= d
    print("--threads=%d" % n if n else "")
PY
}

count=0
for args in "$ARGS_DIR"/*.json; do
  name=$(basename "$args" .json)
  ptx=$BUILD/examples/ptx/$name.sm_90.ptx
  if [ ! -f "$ptx" ]; then
    echo "make-predictions: no PTX for $name ($ptx); skipped" >&2
    continue
  fi
  cp "$ptx" "$OUT/ptx/$name.ptx"
  # shellcheck disable=SC2046
  if ! "$BUILD/bin/flipflop-ptx" --gpu="$GPU" --json $(size_opts "$args") \
      "$OUT/ptx/$name.ptx" > "$OUT/$name.json.tmp"; then
    rm -f "$OUT/$name.json.tmp" "$OUT/ptx/$name.ptx"
    echo "make-predictions: flipflop-ptx failed on $name; skipped" >&2
    continue
  fi
  mv "$OUT/$name.json.tmp" "$OUT/$name.json"
  count=$((count + 1))
  echo "make-predictions: $name"
done
echo "make-predictions: $count prediction(s) for $GPU in $OUT"
