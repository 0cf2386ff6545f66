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

# --where: the sample is drawn from one family of the space only (10 of the
# 16 rows have block_size_x 1 or 2), and a parameter the kernel lacks is a
# one-line error, not a traceback.
t1=(--build "$build" --work "$build/fidelity-t1" --t1 "$src/dedispersion_milo.json"
    --cache "$here/dedispersion-A100-16.json" --source "$src/dedispersion.cu"
    --gpu A100-PCIE-40GB --arch sm_80 --sample 16 --frontends ptx --jobs 2)
out=$(python3 "$here/../fidelity.py" "${t1[@]}" --where block_size_x=1/2 --json "$build/fidelity-t1/where.json")
echo "$out"
echo "$out" | grep -Eq '^\| dedispersion_kernel \| A100-PCIE-40GB \| ptx \| 10 \| -?[0-9]' || {
  echo "fidelity.t1: --where block_size_x=1/2 should score the 10 matching rows"; exit 1; }
python3 - "$build/fidelity-t1/where.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
xs = {s["config"]["block_size_x"] for r in rows for s in r["samples"]}
assert xs == {1, 2}, "--where let in block_size_x %s" % sorted(xs)
# Every sample records what the model said of it: the bottleneck and the
# issue time's busiest pipe with its share.
pipes = {"fp32", "fp64", "fp16", "int", "int_mul", "sfu", "conversion", "shuffle",
         "memory", "tensor", "dispatch"}
for r in rows:
    for s in r["samples"]:
        assert s.get("bound"), "no bottleneck recorded: %s" % s
        p, share = s["pipe"]
        assert p in pipes and 0 < share <= 1, "bad busiest pipe %s" % s["pipe"]
PY
if err=$(python3 "$here/../fidelity.py" "${t1[@]}" --where nosuch=1 2>&1); then
  echo "fidelity.t1: --where nosuch=1 should fail"; exit 1
fi
[ "$(echo "$err" | grep -c .)" -le 2 ] && echo "$err" | grep -q "has no parameter nosuch" || {
  echo "fidelity.t1: --where nosuch=1 should say so in one line, got:"; echo "$err"; exit 1; }
echo "fidelity.t1: --where checks passed"

# The last residuals.py output ($out) must hold a line matching the extended
# regular expression (expect) or the text (expect_text) $1; else the test
# fails saying $2.
expect() { echo "$out" | grep -Eq -- "$1" || { echo "fidelity.t1: $2"; exit 1; }; }
expect_text() { echo "$out" | grep -qF -- "$1" || { echo "fidelity.t1: $2"; exit 1; }; }

# residuals.py --pair: two configurations that differ in block_size_x only
# (measured 2x slower, predicted 1.41x) and one without a partner.
cat > "$build/fidelity-t1/pair.json" <<'JSON'
[{"kernel": "k", "gpu": "G", "frontend": "ptx", "samples": [
 {"config": {"block_size_x": 1, "tile": 2}, "measured_ms": 1.0, "predicted_ms": 1.0},
 {"config": {"block_size_x": 4, "tile": 2}, "measured_ms": 2.0, "predicted_ms": 1.41421356},
 {"config": {"block_size_x": 4, "tile": 3}, "measured_ms": 9.0, "predicted_ms": 1.0}]}]
JSON
out=$(python3 "$here/../residuals.py" "$build/fidelity-t1/pair.json" --pair block_size_x --by tile)
echo "$out"
expect_text "tile=2 block_size_x=4: measured +1.00 predicted +0.50 (n1)" \
  "residuals.py --pair should read the one pair"
[ "$(echo "$out" | grep -c "block_size_x=")" -eq 1 ] || {
  echo "fidelity.t1: residuals.py --pair counted a configuration without a partner"; exit 1; }
echo "fidelity.t1: --pair checks passed"

# residuals.py --interaction: one configuration sampled at all four corners
# of (sa, sb), where sb alone costs 2x measured but nothing predicted and
# both cost what sa alone costs (measured interaction -1, predicted 0), and
# one with two corners only (not counted).
cat > "$build/fidelity-t1/interaction.json" <<'JSON'
[{"kernel": "k", "gpu": "G", "frontend": "ptx", "samples": [
 {"config": {"sa": 0, "sb": 0, "tile": 2}, "measured_ms": 1.0, "predicted_ms": 1.0},
 {"config": {"sa": 1, "sb": 0, "tile": 2}, "measured_ms": 2.0, "predicted_ms": 2.0},
 {"config": {"sa": 0, "sb": 1, "tile": 2}, "measured_ms": 2.0, "predicted_ms": 1.0},
 {"config": {"sa": 1, "sb": 1, "tile": 2}, "measured_ms": 2.0, "predicted_ms": 2.0},
 {"config": {"sa": 0, "sb": 0, "tile": 3}, "measured_ms": 1.0, "predicted_ms": 1.0},
 {"config": {"sa": 1, "sb": 1, "tile": 3}, "measured_ms": 8.0, "predicted_ms": 1.0}]}]
JSON
out=$(python3 "$here/../residuals.py" "$build/fidelity-t1/interaction.json" --interaction sa,sb)
echo "$out"
expect_text "sa=1 +1.00/+1.00  sb=1 +1.00/+0.00  both +1.00/+1.00  interaction -1.00/+0.00 (n1)" \
  "residuals.py --interaction should read the one complete configuration"
echo "fidelity.t1: --interaction checks passed"

# residuals.py groups the residuals by the model's own verdicts too.
cat > "$build/fidelity-t1/verdicts.json" <<'JSON'
[{"kernel": "k", "gpu": "G", "frontend": "ptx", "samples": [
 {"config": {"b": 1}, "measured_ms": 1.0, "predicted_ms": 2.0, "bound": "issue", "pipe": ["conversion", 0.7]},
 {"config": {"b": 2}, "measured_ms": 1.0, "predicted_ms": 1.0, "bound": "dram", "pipe": ["memory", 0.9]}]}]
JSON
out=$(python3 "$here/../residuals.py" "$build/fidelity-t1/verdicts.json")
echo "$out"
expect "\(model\) busiest pipe +resid/meas +conversion:\+1\.00/\+0\.00\(n1\) +memory:\+0\.00/\+0\.00\(n1\)" \
  "residuals.py should group by the busiest pipe"
expect_text "(model) bottleneck" \
  "residuals.py should group by the bottleneck"
echo "fidelity.t1: verdict checks passed"

# residuals.py groups by the quintile of the predicted power: ten samples,
# two a quintile; the two most power-hungry run 2x slower than predicted.
python3 - "$build/fidelity-t1/power.json" <<'PY'
import json, sys
rows = [{"kernel": "k", "gpu": "G", "frontend": "ptx", "samples": [
    {"config": {"b": i}, "measured_ms": 2.0 if i >= 8 else 1.0,
     "predicted_ms": 1.0, "power_w": 100.0 + 10 * i} for i in range(10)]}]
json.dump(rows, open(sys.argv[1], "w"))
PY
out=$(python3 "$here/../residuals.py" "$build/fidelity-t1/power.json")
echo "$out"
expect "\(model\) power quintile +resid/meas +q1<=110W:\+0\.00/\+0\.00\(n2\) .* q5<=190W:-1\.00/\+1\.00\(n2\)" \
  "residuals.py should group by the predicted power's quintile"
expect_text "q4<=170W:+0.00/+0.00(n2)" \
  "residuals.py should put two samples in each power quintile"
echo "fidelity.t1: power checks passed"

# residuals.py --cross: per configuration both GPUs measured, the measured
# ratio of A over B against the predicted one. b=1: A measured 2x B,
# predicted 1x (+1.00); b=2: measured and predicted alike (0); b=3 only on A.
cat > "$build/fidelity-t1/cross.json" <<'JSON'
[{"kernel": "k", "gpu": "A", "frontend": "ptx", "samples": [
  {"config": {"b": 1}, "measured_ms": 2.0, "predicted_ms": 1.0, "occupancy": 0.5, "registers": 40},
  {"config": {"b": 2}, "measured_ms": 1.0, "predicted_ms": 2.0, "occupancy": 1.0, "registers": 70},
  {"config": {"b": 4}, "measured_ms": 1.0, "predicted_ms": 1.0, "occupancy": 1.0, "registers": 70},
  {"config": {"b": 3}, "measured_ms": 5.0, "predicted_ms": 1.0, "occupancy": 1.0, "registers": 70}]},
 {"kernel": "k", "gpu": "B", "frontend": "ptx", "samples": [
  {"config": {"b": 1}, "measured_ms": 1.0, "predicted_ms": 1.0},
  {"config": {"b": 2}, "measured_ms": 1.0, "predicted_ms": 2.0},
  {"config": {"b": 4}, "measured_ms": 2.0, "predicted_ms": 2.0}]}]
JSON
out=$(python3 "$here/../residuals.py" "$build/fidelity-t1/cross.json" --cross A:B --warps-a 48)
echo "$out"
expect_text "A against B: n=3 " \
  "residuals.py --cross should pair the 3 shared configurations"
expect "^  b +1:\+1\.00\(n1\)  2:\+0\.00\(n1\)  4:\+0\.00\(n1\)$" \
  "residuals.py --cross should give b=1 +1.00, the others 0"
expect "warps on A +24:\+1\.00\(n1\)  48:\+0\.00\(n2\)" \
  "residuals.py --cross should group by A's resident warps"
echo "fidelity.t1: --cross checks passed"

# A held-out recipe whose kernel source the user must fetch (we may not copy
# it): without the source the harness says where to get it, in one line,
# and fails, instead of scoring nothing.
nosrc=$build/fidelity-t1/heldout-nosrc
rm -rf "$nosrc" && mkdir -p "$nosrc"
if err=$(python3 "$here/../fidelity.py" --build "$build" --work "$build/fidelity-t1" \
    --data "$nosrc" --recipes "$here/../heldout/recipes" --sample 4 --frontends ptx 2>&1); then
  echo "fidelity.t1: the held-out recipe without its source should fail"; exit 1
fi
[ "$(echo "$err" | grep -c .)" -eq 1 ] && echo "$err" | grep -q "no convolution/src/convolution.cu under .*; fetch cache_scripts/convolution/convolution.cu" || {
  echo "fidelity.t1: a missing held-out source should be one line naming it, got:"; echo "$err"; exit 1; }
echo "fidelity.t1: held-out source check passed"
