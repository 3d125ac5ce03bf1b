#!/usr/bin/env python3
"""How a run's certified gap falls with the restricted set's size: a least-squares fit of
log(gap) = log(c) + b·log(members) over the iteration log of a state file or equilibrium.json,
for the gap of each iteration and for the best-seen gap (best lower and best upper so far).

    python3 results/lukho/equilibrium/convergence.py FILE [FROM_MEMBERS] [TARGET_GAP]

FILE: `state.lukho-eq` (header line, then the JSON body) or `equilibrium.json`; the fit uses the
iterations with at least FROM_MEMBERS members (default 50), and extrapolates the members that
TARGET_GAP (default 0.05) would need.
"""
import json
import math
import sys


def load(path):
    text = open(path).read()
    if text.startswith('{"bytes"') or '"magic"' in text.split("\n", 1)[0]:
        text = text.split("\n", 1)[1]
    return json.loads(text)["log"]


def fit(xs, ys):
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    n = len(lx)
    mx, my = sum(lx) / n, sum(ly) / n
    b = sum((a - mx) * (c - my) for a, c in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)
    a = my - b * mx
    r2 = 1 - sum((c - (a + b * x)) ** 2 for x, c in zip(lx, ly)) / sum((c - my) ** 2 for c in ly)
    return math.exp(a), b, r2


def main():
    log = load(sys.argv[1])
    start = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    target = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
    lo, hi, rows = -math.inf, math.inf, []
    for r in log:
        lo, hi = max(lo, r["lower"]), min(hi, r["upper"])
        rows.append((r["south_size"], r["upper"] - r["lower"], hi - lo, r["iteration"]))
    rows = [r for r in rows if r[0] >= start]
    print(f"{len(log)} iterations; fitted on {len(rows)} with {rows[0][0]}..{rows[-1][0]} members")
    for label, k in [("per-iteration gap", 1), ("best-seen gap", 2)]:
        c, b, r2 = fit([r[0] for r in rows], [r[k] for r in rows])
        need = (target / c) ** (1 / b)
        print(f"{label}: gap ~ {c:.4g} * members^{b:.3f} (R^2 {r2:.3f}); gap {target} at ~{need:.3g} members")
    for m in [100, 200, 400, 600, 770]:
        near = min(rows, key=lambda r: abs(r[0] - m))
        print(f"  members {near[0]} (iteration {near[3]}): gap {near[1]:.3f}, best-seen {near[2]:.3f}")


if __name__ == "__main__":
    main()
