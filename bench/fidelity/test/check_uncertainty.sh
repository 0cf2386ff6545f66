#!/usr/bin/env bash
# ctest fidelity.uncertainty: bench/fidelity/uncertainty.py on hand-made
# runs whose answers are known. A perfect ranking keeps tau 1 and regret 0
# in every resample; a reversed one against it differs by exactly -2 in
# every resample; the O(n log n) tau-b equals the harness's O(n^2) one on
# random data with ties and repeated points; a missing run is a one-line
# error, not a traceback.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../uncertainty.py
dir=$1/fidelity-uncertainty
rm -rf "$dir" && mkdir -p "$dir"
python3 - "$dir" <<'PY'
import json, os, sys
meas = [1.0 + 0.1 * i for i in range(40)]
def run(pred):
    return [{"kernel": "k", "gpu": "G", "frontend": "ptx",
             "samples": [{"config": {"X": i}, "measured_ms": m, "predicted_ms": p}
                         for i, (m, p) in enumerate(zip(meas, pred))]}]
for name, pred in (("right", [2 * m for m in meas]), ("reversed", [1 / m for m in meas])):
    with open(os.path.join(sys.argv[1], name + ".json"), "w") as f:
        json.dump(run(pred), f)
PY
out=$(python3 "$tool" "$dir/right.json" --resamples 200)
echo "$out"
echo "$out" | grep -q "| k | G | ptx | 40 | 1.000 \[1.000, 1.000\] | 0.0% \[0.0, 0.0\] | 2.5% \[2.5, " ||
  { echo "fidelity.uncertainty: a perfect ranking should keep tau 1, regret 0"; exit 1; }
out=$(python3 "$tool" "$dir/right.json" --against "$dir/reversed.json" --resamples 200)
echo "$out"
echo "$out" | grep -q "1.000 -> -1.000, -2.000 \[-2.000, -2.000\], 100%" ||
  { echo "fidelity.uncertainty: the reversed run should differ by -2 in every resample"; exit 1; }
python3 - "$here/.." <<'PY'
import random, sys
sys.path.insert(0, sys.argv[1])
import fidelity, uncertainty
r = random.Random(7)
for _ in range(300):
    n = r.randint(2, 50)
    x = [r.randint(0, 5) for _ in range(n)]
    y = [xi if r.random() < 0.3 else r.randint(0, 5) for xi in x]
    a, b = uncertainty.kendall_tau_b(x, y), fidelity.kendall_tau_b(x, y)
    if not ((a != a and b != b) or abs(a - b) < 1e-12):
        sys.exit("fidelity.uncertainty: tau-b %r != %r for %r %r" % (a, b, x, y))
PY
if err=$(python3 "$tool" "$dir/missing.json" 2>&1); then
  echo "fidelity.uncertainty: a missing run should fail"; exit 1
fi
[ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -q "^uncertainty.py: cannot read" ||
  { echo "fidelity.uncertainty: a missing run should be one line: $err"; exit 1; }
echo "fidelity.uncertainty: ok"
