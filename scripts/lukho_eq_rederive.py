#!/usr/bin/env python3
"""Re-derive the committed equilibrium answers of the small families with today's binary.

    scripts/lukho_eq_rederive.py BIN [--max-family N] [--work DIR]

Every directory of results/lukho/equilibrium/ whose answer is exact and whose family has at
most N choices (default 2,368: the 400-, 256- and 2,368-choice rows, about a minute on 2
cores; 65,536 adds the two `all:drop=0` rows, about an hour) is solved again from nothing
with the race, payoff, family and exploited choices its equilibrium.json names, and the
`--replies` its log shows (the most members a side gained in one iteration). The new
answer must give the same value, the same certified bounds, supports of the same sizes and
the same exploitabilities, each within 1e-6 of the committed figure. Iteration counts are
printed, not compared: ties between optimal restricted mixes may be broken otherwise by
another LP, which changes the path and not the answer.

Prints one line per row and exits 1 if any differs.
"""
import argparse
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

TOL = 1e-6
ROOT = pathlib.Path(__file__).resolve().parent.parent / "results" / "lukho" / "equilibrium"


def replies(committed):
    """The `--replies` the row was run with: the most members a side gained in one iteration."""
    sizes = [r["south_size"] for r in committed["log"]]
    return max([1] + [b - a for a, b in zip(sizes, sizes[1:])])


def bounds(answer):
    """The certified bounds: the certificate's, or the last iteration's in answers older than it."""
    c = answer.get("certificate") or answer
    return c["lower"], c["upper"]


def rederive(binary, row, committed, work):
    out = work / row
    shutil.rmtree(out, ignore_errors=True)
    cmd = [binary, "lukho", "equilibrium", "--race", committed["race"], "--payoff", committed["payoff"],
           "--family", committed["family"], "--out", str(out), "--json"]
    exploit = [e["id"] for e in committed.get("exploit", [])]
    cmd += ["--replies", str(replies(committed))]
    if exploit:
        cmd += ["--exploit", ",".join(map(str, exploit))]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        return None, [f"exit {run.returncode}: {run.stderr.strip().splitlines()[-1:]}"]
    new = json.loads(run.stdout)
    diffs = []

    def near(name, a, b):
        if a is None or b is None or abs(a - b) > TOL:
            diffs.append(f"{name} {b} (committed {a})")

    near("value", committed["value"], new["value"])
    for name, a, b in zip(("lower", "upper"), bounds(committed), bounds(new)):
        near(name, a, b)
    if not new["exact"]:
        diffs.append("not exact")
    for side in ("south", "north"):
        if len(committed[side]) != len(new[side]):
            diffs.append(f"{side} support {len(new[side])} (committed {len(committed[side])})")
    by_id = {e["id"]: e for e in new.get("exploit", [])}
    for e in committed.get("exploit", []):
        n = by_id.get(e["id"])
        if n is None:
            diffs.append(f"exploit {e['id']} missing")
            continue
        near(f"exploit {e['id']} as South", e["as_south"], n["as_south"])
        near(f"exploit {e['id']} as North", e["as_north"], n["as_north"])
    return new, diffs


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    p.add_argument("binary")
    p.add_argument("--max-family", type=int, default=2368)
    p.add_argument("--work", type=pathlib.Path, default=None)
    a = p.parse_args()
    work = a.work or pathlib.Path(tempfile.mkdtemp(prefix="lukho_eq_rederive."))
    work.mkdir(parents=True, exist_ok=True)
    failed = 0
    print(f"{'row':<38} {'family':>6} {'value':>11} {'support':>9} {'iterations':>10}  result")
    for d in sorted(ROOT.iterdir()):
        f = d / "equilibrium.json"
        if not f.is_file():
            continue
        committed = json.loads(f.read_text())
        if not committed.get("exact") or committed["family_size"] > a.max_family:
            continue
        new, diffs = rederive(a.binary, d.name, committed, work)
        support = f"{len(committed['south'])}/{len(committed['north'])}"
        its = f"{committed['iterations']}->{new['iterations']}" if new else "-"
        verdict = "same" if not diffs else "DIFFERS: " + "; ".join(diffs)
        failed += bool(diffs)
        print(f"{d.name:<38} {committed['family_size']:>6} {committed['value']:>11.6f} {support:>9} {its:>10}  {verdict}",
              flush=True)
    if a.work is None:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
