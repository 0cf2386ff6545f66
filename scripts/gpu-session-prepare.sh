#!/usr/bin/env bash
# Prepares, on this machine (no GPU), everything one device call needs, in
# .measure/ (ignored by git; carried to the GPU machine with carry
# [".measure"]): the fidelity recipes' samples as cubins, built by nvcc and
# by clang + ptxas (bench/fidelity/measure.py build), the bundled examples'
# predictions and PTX for that GPU (scripts/make-predictions.sh), and nlohmann/json.hpp for
# building flipflop-measure there (its image has no such package).
# Idempotent: cubins already built are kept. About 14 minutes on 2 cores
# the first time. Then run, in one device call (scripts/gpu-session.sh):
#   run(command="bash scripts/gpu-session.sh", carry=[".measure"], timeout_s=570)
#
# Usage: scripts/gpu-session-prepare.sh [GPU] [ARCH]   (default H200 sm_90)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GPU=${1:-H200}
ARCH=${2:-sm_90}
M=$ROOT/.measure
BUILD=${FLIPFLOP_BUILD_DIR:-$ROOT/build}
cd "$ROOT"
grep -qx '/.measure/' .git/info/exclude 2>/dev/null || echo '/.measure/' >> .git/info/exclude
mkdir -p "$M"
export PATH=$PATH:/usr/local/cuda/bin
python3 bench/fidelity/measure.py build --recipe bench/fidelity/kernels/dedispersion.json \
  --arch "$ARCH" --count 500 --out "$M/dedispersion"
python3 bench/fidelity/measure.py build --recipe bench/fidelity/kernels/gemm.json \
  --arch "$ARCH" --count 700 --out "$M/gemm"
# The plugin route's binaries (clang + ptxas) of the seed-1 samples: the
# plugin is scored on what it reads, not only on nvcc's binary.
python3 bench/fidelity/measure.py build --recipe bench/fidelity/kernels/dedispersion.json \
  --arch "$ARCH" --count 300 --out "$M/dedispersion-clang" --compiler clang
python3 bench/fidelity/measure.py build --recipe bench/fidelity/kernels/gemm.json \
  --arch "$ARCH" --count 300 --out "$M/gemm-clang" --compiler clang
# The held-out convolution (session 39): its A100 sample first, so that the
# run says whether today's nvcc binaries keep the data's 3 x 4 anomaly
# (docs/FIDELITY.md, "Session 39"). Its source is fetched, not committed
# (bench/fidelity/heldout/README.md); without it this step is skipped.
if [ -f bench/fidelity/heldout/convolution/src/convolution.cu ]; then
  python3 bench/fidelity/measure.py build --recipe bench/fidelity/heldout/recipes/convolution.json \
    --data bench/fidelity/heldout --arch "$ARCH" --count 300 --out "$M/convolution"
else
  echo "gpu-session-prepare: no convolution source (bench/fidelity/heldout/README.md); held-out kernel skipped" >&2
fi
bash scripts/make-predictions.sh "$BUILD" "$M/predictions" "$GPU"
json=$(find /usr/include /usr/local/include -path '*/nlohmann/json.hpp' 2>/dev/null | head -n 1)
if [ -n "$json" ]; then
  rm -rf "$M/include" && mkdir -p "$M/include"
  cp -r "$(dirname "$json")" "$M/include/"
else
  echo "gpu-session-prepare: no nlohmann/json.hpp here (apt-get install nlohmann-json3-dev);" \
       "the examples' validation will not build there" >&2
fi
echo "$GPU $ARCH" > "$M/target.txt"
du -sh "$M"
echo 'gpu-session-prepare: ready; device call: run(command="bash scripts/gpu-session.sh", carry=[".measure"], timeout_s=570)'
