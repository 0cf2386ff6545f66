#!/usr/bin/env bash
# Measures tuning-space samples on this machine's GPU, in one short session.
#
# Input: folders made beforehand (on any machine with nvcc) by
#   bench/fidelity/measure.py build --recipe ... --arch sm_XX --out DIR/<kernel>
# Output, in $OUT (default DIR/out): <kernel>.csv (measure.py run's rows),
# <kernel>-repeat.csv (the first configurations measured a second time, at
# the end: the run-to-run noise), gpu.txt and nvidia-smi.txt (the card, its
# driver, clocks and power limit), log.txt. Never changes clocks or limits.
#
# Usage: bench/fidelity/measure-gpu.sh DIR KERNEL:SECONDS [KERNEL:SECONDS...]
#   REPEAT_S (default 10): seconds of the repeat pass per kernel.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:?usage: measure-gpu.sh DIR KERNEL:SECONDS...}
shift
OUT=${OUT:-$DIR/out}
REPEAT_S=${REPEAT_S:-10}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
exec > >(tee -a "$OUT/log.txt") 2>&1
echo "measure-gpu: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
nvidia-smi --query-gpu=name,driver_version,power.limit,power.default_limit,clocks.max.sm,clocks.sm,clocks.mem,temperature.gpu,persistence_mode \
  --format=csv > "$OUT/gpu.txt" 2>&1 && cat "$OUT/gpu.txt"
nvidia-smi -q > "$OUT/nvidia-smi.txt" 2>&1
# The device's own figures where PyTorch is there (L2 size, SMs: checks on
# the GPU database's row; docs/GPUS.md).
timeout 60 python3 -c 'import torch; p = torch.cuda.get_device_properties(0); print("torch:", p.name, "SMs", p.multi_processor_count, "L2 bytes", p.L2_cache_size, "memory bytes", p.total_memory)' \
  >> "$OUT/gpu.txt" 2>/dev/null || true
for job in "$@"; do
  k=${job%%:*} s=${job##*:}
  python3 "$HERE/measure.py" run --manifest "$DIR/$k/manifest.json" --csv "$OUT/$k.csv" \
    --budget "$s" || echo "measure-gpu: $k: exit $?"
done
for job in "$@"; do
  k=${job%%:*}
  python3 "$HERE/measure.py" run --manifest "$DIR/$k/manifest.json" \
    --csv "$OUT/$k-repeat.csv" --budget "$REPEAT_S" || echo "measure-gpu: $k repeat: exit $?"
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
echo "measure-gpu: done $(date -u +%Y-%m-%dT%H:%M:%SZ)"
