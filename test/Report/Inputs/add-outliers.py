"""Makes a FlipFlop report hard to plot, for test/Report/html-axes.test.

Kernel 1: ten configurations that are neither on the Pareto front nor
picked get 40x their time and energy (outliers). Kernel 2: the least-energy
pick, if it is not the fastest, takes 30x the fastest time, so the front
itself spans more than a decade of time.
usage: add-outliers.py IN.json OUT.json
"""
import json
import sys

with open(sys.argv[1]) as f:
    report = json.load(f)
kernels = report["kernels"]
k = kernels[1]
keep = set(k["pareto"]) | set(k["picks"].values())
moved = 0
for i, c in enumerate(k["configs"]):
    if i not in keep and c.get("valid", True) and moved < 10:
        c["time_s"] *= 40
        c["energy_j"] *= 40
        moved += 1
k = kernels[2]
fast, least = k["picks"]["fastest"], k["picks"]["least_energy"]
if fast != least:
    k["configs"][least]["time_s"] = 30 * k["configs"][fast]["time_s"]
with open(sys.argv[2], "w") as f:
    json.dump(report, f)
print("moved", moved)
