#!/usr/bin/env bash
# ctest fidelity.t1: the harness on a Kernel Tuner T1 description + cache
# file + source (the route for any user's own tuning data), here 16 measured
# dedispersion rows. Checks that every row is predicted and scored.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1
data=${FLIPFLOP_TUNING_DATA:-$here/../../../../shared/data/tuning}
src=$data/dedispersion/src
[ -d "$src" ] || { echo "fidelity.t1: no tuning data at $data"; exit 77; }
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || { echo "fidelity.t1: no nvcc"; exit 77; }
out=$(python3 "$here/../fidelity.py" --build "$build" --work "$build/fidelity-t1" \
  --t1 "$src/dedispersion_milo.json" --cache "$here/dedispersion-A100-16.json" \
  --source "$src/dedispersion.cu" --gpu A100-PCIE-40GB --arch sm_80 \
  --sample 16 --frontends ptx --jobs 2)
echo "$out"
echo "$out" | grep -Eq '^\| dedispersion_kernel \| A100-PCIE-40GB \| ptx \| 16 \| -?[0-9]' || {
  echo "fidelity.t1: expected a scored row of 16 configurations"; exit 1; }
