#!/usr/bin/env python3
"""What an optimal mix does: its weight by seeds removed, by drop count, by seeds sown (removed
minus dropped), by drop pit and by removals per own pit, from a run's equilibrium.json
(README.md, the reading under each full-game row).

    python3 results/lukho/equilibrium/reading.py DIR/equilibrium.json [south|north|certificate]

`certificate` reads South's mix of the certificate (the best-bounded mix of the run, e.g. an
average of the last LP mixes with `--average`) instead of the last iteration's LP mix; the
bounds printed are then the certificate's.
"""
import json
import sys
from collections import defaultdict


def parse(choice):
    # "r0,…,r7 COUNT@PIT": removals from own pits 0..7, then the drop into the opponent's pit.
    removal, drop = choice.split()
    r = [int(x) for x in removal.split(",")]
    count, pit = (int(x) for x in drop.split("@"))
    return r, count, pit


def reading(answer, side="south"):
    bounds = answer
    if side == "certificate":
        bounds = answer["certificate"]
        mix = bounds["south"]
    else:
        mix = answer[side]
    mix = sorted(mix, key=lambda e: -e["weight"])
    top = lambda k: sum(e["weight"] for e in mix[:k])
    lines = [
        f"{answer['family']} ({answer['family_size']} choices), race {answer['race']}, payoff {answer['payoff']}: "
        f"value {answer['value']:.6f}, certified [{bounds['lower']:.6f}, {bounds['upper']:.6f}], "
        f"{side}'s mix {len(mix)} choices, heaviest {mix[0]['weight']:.4f} ({mix[0]['choice']}), "
        f"ten heaviest {top(10):.3f}, hundred heaviest {top(100):.3f}"
    ]
    removed, count, sown, pit = defaultdict(float), defaultdict(float), defaultdict(float), defaultdict(float)
    per_pit = [0.0] * 8
    for e in mix:
        r, c, p = parse(e["choice"])
        w = e["weight"]
        removed[sum(r)] += w
        count[c] += w
        sown[sum(r) - c] += w
        pit[p if c > 0 else "none"] += w
        for k in range(8):
            per_pit[k] += w * r[k]
    fmt = lambda d: ", ".join(f"{k}: {v:.3f}" for k, v in sorted(d.items(), key=lambda kv: str(kv[0]).zfill(4)))
    lines.append(f"  seeds removed (weight): {fmt(removed)}")
    lines.append(f"  drop count (weight): {fmt(count)}")
    lines.append(f"  seeds sown (weight): {fmt(sown)}")
    lines.append(f"  drop pit, drops of >= 1 seed (weight): {fmt(pit)}")
    lines.append("  mean seeds removed per own pit 0..7: " + " ".join(f"{x:.2f}" for x in per_pit))
    return "\n".join(lines)


if __name__ == "__main__":
    answer = json.load(open(sys.argv[1]))
    print(reading(answer, sys.argv[2] if len(sys.argv) > 2 else "south"))
