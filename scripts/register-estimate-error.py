#!/usr/bin/env python3
"""Measures the IR register estimate against ptxas over a FlipFlop report.

Usage: scripts/register-estimate-error.py REPORT.json
Reads every kernel's resources.estimated_registers (IR liveness estimate) and
resources.registers (ptxas -v, when registers_exact) and prints a Markdown
table with the error of each kernel and its summary (mean absolute error,
mean signed error, worst case). Standard library only.
"""
import json
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        report = json.load(f)
    rows = []
    for k in report.get("kernels", []):
        r = k.get("resources", {})
        if not r.get("registers_exact"):
            continue
        est, exact = r.get("estimated_registers", 0), r.get("registers", 0)
        rows.append((k.get("display_name", k.get("name")), est, exact))
    if not rows:
        sys.exit("no kernel with ptxas registers in " + sys.argv[1])
    print("| kernel | estimate | ptxas | error |")
    print("|---|---:|---:|---:|")
    for name, est, exact in sorted(rows):
        print(f"| `{name[:60]}` | {est} | {exact} | {est - exact:+d} |")
    errs = [e - x for _, e, x in rows]
    rel = [abs(e - x) / x for _, e, x in rows if x]
    print()
    print(f"{len(rows)} kernels: mean absolute error "
          f"{sum(abs(e) for e in errs) / len(errs):.1f} registers, "
          f"mean signed error {sum(errs) / len(errs):+.1f}, "
          f"mean relative error {100 * sum(rel) / len(rel):.0f}%, "
          f"worst {max(errs, key=abs):+d}.")


if __name__ == "__main__":
    main()
