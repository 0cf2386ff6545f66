#!/usr/bin/env bash
# Measures FlipFlop's predictions on a real GPU and validates them.
#
# For a GPU machine with the CUDA toolkit (cuda.h), CMake, a C++ compiler and
# nlohmann-json3-dev (apt-get install nlohmann-json3-dev, or the header: see
# docs/MEASUREMENT.md), no LLVM: it builds tools/flipflop-measure standalone,
# runs a short calibration, measures every example that has both a prediction
# (bench/predictions/<name>.json, made beforehand by
# scripts/make-predictions.sh) and an args file
# (tools/flipflop-measure/args/<name>.json), and validates. Everything lands
# in $OUT (default ./gpu-validate-out):
#   calibration.json(.report.json)  flipflop-calibrate's spec and raw figures
#   measured/<name>.json            flipflop-measure reports
#   validation.md, validation.json  flipflop-validate's section and metrics
#   summary.txt                     what ran, how long, and the headline figures
# It never changes the card's power limit or clocks. Budget: BUDGET_S seconds
# in all (default 450, under 8 minutes on an H200).
#
# Usage: scripts/gpu-validate.sh [PREDICTIONS_DIR]
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PRED=${1:-$ROOT/bench/predictions}
OUT=${OUT:-$ROOT/gpu-validate-out}
BUILD=${BUILD:-${TMPDIR:-/tmp}/flipflop-measure-build}
BUDGET_S=${BUDGET_S:-450}
START=$(date +%s)
mkdir -p "$OUT/measured"
SUMMARY=$OUT/summary.txt
: > "$SUMMARY"
log() { echo "$*" | tee -a "$SUMMARY"; }
left() { echo $((BUDGET_S - ($(date +%s) - START))); }

log "gpu-validate: $(date -u +%Y-%m-%dT%H:%M:%SZ), predictions from $PRED"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,driver_version,power.limit,power.default_limit,clocks.max.sm,temperature.gpu \
    --format=csv 2>&1 | tee -a "$SUMMARY"
  nvidia-smi -q > "$OUT/nvidia-smi.txt" 2>&1 || true
fi

# 1. Build (standalone: no LLVM needed).
if ! { cmake -S "$ROOT/tools/flipflop-measure" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$BUILD" -j "$(nproc)"; } > "$OUT/build.log" 2>&1; then
  log "gpu-validate: build failed (see build.log)"
  tail -20 "$OUT/build.log"
  exit 1
fi
BIN=$BUILD/bin
log "gpu-validate: built in $(( $(date +%s) - START )) s"

# 2. A short calibration.
timeout 150 "$BIN/flipflop-calibrate" --quick -o "$OUT/calibration.json" \
  > "$OUT/calibration.txt" 2> "$OUT/calibration.log"
rc=$?
if [ $rc -eq 77 ]; then
  log "gpu-validate: no GPU here: $(tail -1 "$OUT/calibration.log")"
  exit 77
fi
log "gpu-validate: calibration exit $rc"
cat "$OUT/calibration.txt" >> "$SUMMARY"

# 3. Measurements, sharing what is left of the budget (keeping 30 s for the
# validation and the summary).
todo=()
for pred in "$PRED"/*.json; do
  [ -e "$pred" ] || continue
  name=$(basename "$pred" .json)
  if [ -f "$PRED/ptx/$name.ptx" ] && [ -f "$ROOT/tools/flipflop-measure/args/$name.json" ]; then
    todo+=("$name")
  else
    log "gpu-validate: $name: no PTX or args file; skipped"
  fi
done
measured=()
predicted=()
for i in "${!todo[@]}"; do
  name=${todo[$i]}
  remaining=$(( $(left) - 30 ))
  share=$(( remaining / (${#todo[@]} - i) ))
  if [ "$share" -lt 10 ]; then
    log "gpu-validate: $name: out of time; skipped"
    continue
  fi
  # The tool stops starting configurations after its budget; timeout is the
  # backstop.
  timeout $((share + 20)) "$BIN/flipflop-measure" \
    --configs-from "$PRED/$name.json" --args "$ROOT/tools/flipflop-measure/args/$name.json" \
    --repeats 10 --warmup 2 --min-duration 0.1 --time-budget "$share" --quiet \
    -o "$OUT/measured/$name.json" "$PRED/ptx/$name.ptx" 2> "$OUT/measured/$name.log"
  rc=$?
  log "gpu-validate: $name: exit $rc ($(( $(date +%s) - START )) s elapsed)"
  if [ $rc -eq 0 ]; then
    measured+=("$OUT/measured/$name.json")
    predicted+=("$PRED/$name.json")
  fi
done

# 4. Validation.
if [ ${#measured[@]} -eq 0 ]; then
  log "gpu-validate: nothing measured"
  exit 1
fi
preds=$(IFS=,; echo "${predicted[*]}")
meas=$(IFS=,; echo "${measured[*]}")
"$BIN/flipflop-validate" --predictions "$preds" --measurements "$meas" \
  --markdown "$OUT/validation.md" --json "$OUT/validation.json" 2>> "$SUMMARY"
rc=$?
cat "$OUT/validation.md" >> "$SUMMARY" 2>/dev/null
log "gpu-validate: validation exit $rc, $(( $(date +%s) - START )) s in all"
exit $rc
