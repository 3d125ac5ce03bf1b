#!/usr/bin/env python3
"""Small committed tables from a `mancala lukho sweep` summary.csv (too big to commit).

usage: lukho_tables.py SWEEP_DIR OUT_PREFIX
writes OUT_PREFIX-best.csv (the 50 South choices with the highest guaranteed margin, then mean)
and OUT_PREFIX-by-drop.csv (per drop count and pit: choices, games, South win share, mean margin),
with its chart OUT_PREFIX-by-drop.svg (South's win share; lukho_drop_chart.py beside this script).
"""
import csv, heapq, json, sys
from collections import defaultdict

from lukho_drop_chart import drop_chart

src, out = sys.argv[1], sys.argv[2]
# The CSVs are a header line and rows; rules and version live in each one's sidecar
# NAME.meta.json (as `mancala` writes them).
with open(f"{src}/summary.meta.json") as f:
    source = json.load(f)


def sidecar(path, columns):
    meta = {"file": path.rsplit("/", 1)[-1], "rules": source["rules"], "version": source["version"],
            "columns": [{"name": n, "type": t} for n, t in columns], "source": "scripts/lukho_tables.py"}
    with open(path.removesuffix(".csv") + ".meta.json", "w") as f:
        f.write(json.dumps(meta, indent=2) + "\n")


with open(f"{src}/summary.csv") as f:
    rd = csv.DictReader(f)
    best = []
    by = defaultdict(lambda: [0, 0, 0, 0.0])
    for i, r in enumerate(rd):
        mn, mean = int(r["min_margin"]), float(r["mean_margin"])
        key = (mn, mean, -int(r["south_id"]))
        if len(best) < 50:
            heapq.heappush(best, (key, r))
        elif key > best[0][0]:
            heapq.heapreplace(best, (key, r))
        d = r["south_drop"]
        cnt, pit = d.split("@")
        g = by[(int(cnt), int(pit))]
        games = int(r["games"])
        g[0] += 1; g[1] += games; g[2] += int(r["wins"]); g[3] += mean * games
best = [r for _, r in sorted(best, key=lambda x: x[0], reverse=True)]
cols = ["south_id", "south_remove", "south_drop", "games", "wins", "draws", "losses", "min_margin", "max_margin",
        "mean_margin", "south_points_first_game", "south_points_later_game", "south_moves_first"]
kinds = {"south_remove": "str", "south_drop": "str", "min_margin": "float", "max_margin": "float", "mean_margin": "float"}
sidecar(f"{out}-best.csv", [(c, kinds.get(c, "int")) for c in cols])
with open(f"{out}-best.csv", "w", newline="") as f:
    w = csv.writer(f); w.writerow(cols)
    for r in best:
        w.writerow([r[c] for c in cols])
sidecar(f"{out}-by-drop.csv", [("drop_count", "int"), ("drop_pit", "int"), ("choices", "int"), ("games", "int"),
                               ("south_win_share", "float"), ("mean_margin", "float")])
with open(f"{out}-by-drop.csv", "w", newline="") as f:
    w = csv.writer(f); w.writerow(["drop_count", "drop_pit", "choices", "games", "south_win_share", "mean_margin"])
    for (cnt, pit), (n, games, wins, msum) in sorted(by.items()):
        w.writerow([cnt, pit, n, games, f"{wins / games:.6f}", f"{msum / games:.4f}"])
drop_chart(f"{out}-by-drop.csv", f"{out}-by-drop.svg")
