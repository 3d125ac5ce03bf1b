#!/usr/bin/env python3
"""Spot-check a `lukho equilibrium` certificate by another road: plain games, not payoff vectors.

usage: lukho_eq_spot_check.py EQUILIBRIUM.json [--random K] [--seed S] [--bin target/release/mancala]

The certificate says: South's mix wins at least `lower` against every North choice of the
family, and North's mix lets South win at most `upper` against every South choice. The solver
proves this with its payoff vectors (one byte per choice, summed by its best-reply pass). This
script replays a sample of those inequalities with `mancala lukho sweep --games csv`, which
plays every pair of the mix against the sampled opponents under every race outcome of the
model and writes one row per game, and sums the weights itself:

- the opponents: a family of at most 5,000 choices whole (then every inequality of the
  certificate is replayed); otherwise K random choices of the family (for the family `all`,
  uniform over its 6,356,992 ids; otherwise from the run's restricted sets, which lie in the
  family), the run's last best replies (`log[-1]`) and the `exploit` choices;
- the payoff: `margin` (South − North seeds; halves for split games), `result` (+1/0/−1),
  `points` or `points-later` (match points of a first or later game, rule book L13, scored
  here from the final totals, not from the solver's points columns), averaged over the
  model's outcomes at equal weights, as the solver does;
- it fails (exit 1) if one sampled North choice holds South's mix below `lower`, or one
  sampled South choice beats North's mix above `upper` (beyond 1e-9: the weights are f64).

A pass is no proof (the certificate covers every choice; this covers a sample), but it checks
the payoff rules, the ids and the weights of the committed mixes end to end. The full
`lockstep` row (12,568 choices) with K = 30: 1.76 million games, 6.9 s here.
"""
import argparse
import csv
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import defaultdict

ap = argparse.ArgumentParser()
ap.add_argument("answer")
ap.add_argument("--random", type=int, default=30, help="random opponents per side (default 30)")
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--bin", default="target/release/mancala")
a = ap.parse_args()

answer = json.load(open(a.answer))
payoff = answer["payoff"]
if payoff not in ("margin", "result", "points", "points-later"):
    sys.exit(f"payoff `{payoff}`: the spot check knows margin, result, points and points-later")
cert = answer.get("certificate") or {"south": answer["south"], "north": answer["north"],
                                     "lower": answer["lower"], "upper": answer["upper"]}
rules = answer["rules"]
rng = random.Random(a.seed)
SMALL_FAMILY = 5000


def opponents(side_set):
    """The opponents to replay: the whole family when it is small (every inequality of the
    certificate, not a sample), else K random choices plus the last best replies and the
    `exploit` choices."""
    if answer["family"] != "all" and answer["family_size"] <= SMALL_FAMILY:
        return answer["family"]
    if answer["family"] == "all":
        picked = rng.sample(range(answer["family_size"]), a.random)
    else:
        picked = rng.sample(side_set, min(a.random, len(side_set)))
    last = answer["log"][-1] if answer["log"] else {}
    extra = [last.get("north_best_response"), last.get("south_best_response")]
    extra += [e["id"] for e in answer.get("exploit", [])]
    return sorted(set(picked) | {x for x in extra if x is not None})


def spec(ids):
    return ids if isinstance(ids, str) else ",".join(map(str, ids))


def match_points(winner, loser, first_game):
    """Rule book L13: a bull (won by exactly 2 seeds) 12 in a first game, else 4; a loser at 0
    4; any other win 2."""
    if winner - loser == 2:
        return 12.0 if first_game else 4.0
    return 4.0 if loser == 0 else 2.0


def game_payoff(row):
    if payoff == "margin":
        return float(row["margin"])
    sign = {"south": 1.0, "north": -1.0}.get(row["winner"], 0.0)
    if payoff == "result" or sign == 0.0:
        return sign
    s, n = float(row["south_total"]), float(row["north_total"])
    return sign * match_points(max(s, n), min(s, n), payoff == "points")


def play(south_ids, north_ids):
    """Mean payoff to South of every (south, north) pair over the model's outcomes."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [a.bin, "lukho", "sweep", "--south", spec(south_ids),
               "--north", spec(north_ids), "--race", answer["race"],
               "--chain", rules["chain"], "--out", out, "--games", "csv"]
        if rules.get("keep_one"):
            cmd.append("--keep-one")
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        total, count = defaultdict(float), defaultdict(int)
        with open(os.path.join(out, "games.csv")) as f:
            for row in csv.DictReader(f):
                key = (int(row["south_id"]), int(row["north_id"]))
                total[key] += game_payoff(row)
                count[key] += 1
    return {k: total[k] / count[k] for k in total}


failed = False
# South's mix against sampled North choices: each sum must be >= lower.
mix = {e["id"]: e["weight"] for e in cert["south"]}
norths = opponents(answer.get("north_set", []))
pay = play(sorted(mix), norths)
norths = sorted({n for _, n in pay})
worst = min((sum(w * pay[(s, n)] for s, w in mix.items()), n) for n in norths)
ok = worst[0] >= cert["lower"] - 1e-9
failed |= not ok
print(f"South's mix ({len(mix)} choices) against {len(norths)} North choices: worst {worst[0]:.6f} "
      f"(North {worst[1]}), certified lower {cert['lower']:.6f}: {'ok' if ok else 'FAILS'}")
# North's mix against sampled South choices: each sum must be <= upper.
mix = {e["id"]: e["weight"] for e in cert["north"]}
souths = opponents(answer.get("south_set", []))
pay = play(souths, sorted(mix))
souths = sorted({s for s, _ in pay})
best = max((sum(w * pay[(s, n)] for n, w in mix.items()), s) for s in souths)
ok = best[0] <= cert["upper"] + 1e-9
failed |= not ok
print(f"North's mix ({len(mix)} choices) against {len(souths)} South choices: best {best[0]:.6f} "
      f"(South {best[1]}), certified upper {cert['upper']:.6f}: {'ok' if ok else 'FAILS'}")
sys.exit(1 if failed else 0)
