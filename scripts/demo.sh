#!/usr/bin/env bash
# The README's first command: install what is missing, build FlipFlop and the
# examples, and run FlipFlop (the clang plugin) over every bundled example for
# one GPU, printing per kernel the recommended configuration for each
# objective against NVIDIA's occupancy heuristic, the reason, and the path of
# the HTML report.
#
#   scripts/demo.sh [--gpu NAME]        (default: H100-SXM5-80GB)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
gpu=H100-SXM5-80GB
while [ $# -gt 0 ]; do
  case "$1" in
    --gpu) gpu=$2; shift 2 ;;
    --gpu=*) gpu=${1#--gpu=}; shift ;;
    -h|--help) sed -n 2,9p "$0"; exit 0 ;;
    *) echo "demo.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
bash scripts/setup.sh
build=${FLIPFLOP_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j2 --target FlipFlop flipflop-ptx flipflop-report

# The GPU's architecture decides the device compile's --cuda-gpu-arch.
if ! details=$("$build/bin/flipflop-ptx" --show-gpu "$gpu" 2>&1); then
  echo "demo.sh: $details" >&2
  exit 2
fi
arch=$(printf '%s\n' "$details" | grep -o 'sm_[0-9]*[a-z]*' | head -n 1)
clang=/usr/lib/llvm-22/bin/clang++
cuda=/usr/local/cuda
out="$build/demo/$gpu"
rm -rf "$out"
mkdir -p "$out/reports"
echo "FlipFlop over examples/*.cu for $gpu ($arch)"
for src in examples/*.cu; do
  FLIPFLOP_GPU="$gpu" FLIPFLOP_REPORT_DIR="$out/reports" FLIPFLOP_PTXAS=on \
    "$clang" -x cuda --cuda-path="$cuda" -Wno-unknown-cuda-version -std=c++17 \
    -O2 --cuda-device-only --cuda-gpu-arch="$arch" -Iexamples -S "$src" \
    -o "$out/$(basename "$src" .cu).ptx" -fpass-plugin="$build/lib/FlipFlop.so" \
    -Rpass-missed=flipflop 2>"$out/$(basename "$src" .cu).remarks" || {
      echo "demo.sh: compiling $src failed:" >&2
      cat "$out/$(basename "$src" .cu).remarks" >&2
      exit 1
    }
done
"$build/bin/flipflop-report" merge "$out/reports" -o "$out/flipflop.json"
"$build/bin/flipflop-report" summary "$out/flipflop.json"
"$build/bin/flipflop-report" html "$out/flipflop.json" -o "$out/flipflop.html"
echo "Remarks on what limited each recommendation: $out/*.remarks"
echo "HTML report: $out/flipflop.html"
