#!/usr/bin/env python3
"""Markdown table of `mancala lukho equilibrium` answers: one row per DIR/equilibrium.json.

usage: scripts/lukho_eq_table.py results/lukho/equilibrium/*/equilibrium.json
"""
import json
import sys


def f(x, d=4):
    return "-" if x is None else f"{x:.{d}f}"


print("| run | family (size) | race | payoff | value | lower | upper | gap | exact | iterations | support S/N | games | seconds |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for path in sys.argv[1:]:
    a = json.load(open(path))
    run = path.split("/")[-2]
    print(
        f"| {run} | `{a['family']}` ({a['family_size']:,}) | {a['race']} | {a['payoff']} | {f(a['value'])} | {f(a['lower'])} | {f(a['upper'])} "
        f"| {a['gap']:.2g} | {a['exact']} | {a['iterations']} | {len(a['south'])}/{len(a['north'])} | {a['games']:,} | {a['seconds']:.1f} |"
    )
print()
print("| run | choice | as South: worst payoff (exploitability) | as North: South's best (exploitability) |")
print("|---|---|---|---|")
for path in sys.argv[1:]:
    a = json.load(open(path))
    run = path.split("/")[-2]
    for e in a["exploit"]:
        print(
            f"| {run} | {e['id']} `{e['choice']}` | {f(e['as_south'], 3)} ({f(e['as_south_exploitability'], 3)}) | {f(e['as_north'], 3)} ({f(e['as_north_exploitability'], 3)}) |"
        )
