#!/usr/bin/env bash
# One device call's worth of GPU work, prepared by scripts/gpu-session-prepare.sh
# (read its header first). On the GPU machine, within about 8 minutes:
#  1. the fidelity recipes' samples, timed and with energy
#     (bench/fidelity/measure-gpu.sh): nvcc's binaries, TUNE_S seconds per
#     kernel (default 100), then clang's (the plugin route's), CLANG_S
#     seconds per kernel (default 55; skipped if not prepared), and the
#     held-out convolution, CONV_S seconds (default 50; skipped if not
#     prepared);
#  2. the bundled examples measured against their predictions
#     (scripts/gpu-validate.sh, VALIDATE_S seconds, default 130; skipped if
#     the prepared header or predictions are missing).
# $OUT receives at most 7 files: <kernel>.csv and <kernel>-clang.csv for
# each kernel, convolution.csv, log.txt, and results.tgz (everything else: repeats,
# nvidia-smi, the validation's files). Never changes the card's clocks or
# power limit.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
M=$ROOT/.measure
OUT=${OUT:-$ROOT/gpu-session-out}
TUNE_S=${TUNE_S:-100}
CLANG_S=${CLANG_S:-55}
CONV_S=${CONV_S:-50}
VALIDATE_S=${VALIDATE_S:-130}
W=$(mktemp -d)
mkdir -p "$OUT"
exec > >(tee -a "$OUT/log.txt") 2>&1
cd "$ROOT"
[ -d "$M/gemm" ] || { echo "gpu-session: no $M (run scripts/gpu-session-prepare.sh here first)"; exit 2; }
start=$(date +%s)
echo "gpu-session: $(date -u +%Y-%m-%dT%H:%M:%SZ), prepared for $(cat "$M/target.txt" 2>/dev/null)"
jobs=(dedispersion:"$TUNE_S" gemm:"$TUNE_S")
for k in dedispersion gemm; do
  [ -f "$M/$k-clang/manifest.json" ] && jobs+=("$k-clang:$CLANG_S")
done
[ -f "$M/convolution/manifest.json" ] && jobs+=("convolution:$CONV_S")
OUT=$W/tuning REPEAT_S=6 bash bench/fidelity/measure-gpu.sh "$M" "${jobs[@]}"
for k in dedispersion gemm dedispersion-clang gemm-clang convolution; do
  cp "$W/tuning/$k.csv" "$OUT"/ 2>/dev/null
done
echo "gpu-session: tuning samples done, $(( $(date +%s) - start )) s"
if [ -f "$M/include/nlohmann/json.hpp" ] && [ -d "$M/predictions/ptx" ]; then
  CMAKE_INCLUDE_PATH=$M/include OUT=$W/validate BUDGET_S=$VALIDATE_S \
    bash scripts/gpu-validate.sh "$M/predictions" || echo "gpu-session: validation exit $?"
else
  echo "gpu-session: validation skipped (nothing prepared for it)"
fi
tar czf "$OUT/results.tgz" -C "$W" . && echo "gpu-session: results.tgz $(du -h "$OUT/results.tgz" | cut -f1)"
echo "gpu-session: done, $(( $(date +%s) - start )) s"
