#!/usr/bin/env bash
# Lukho sweep speed on this machine (the yardstick of results/BENCHMARKS.md): one South choice against all
# 6,356,992 North choices under both `sequential` outcomes (12,713,984 games), for an easy, a
# typical and a perpetual-rich South choice, on all cores and on one; then the projected
# core-hours of the full joint sweep for each race model (`--dry-run`, timed on a sample).
# Run on a quiet machine; figures go to results/BENCHMARKS.md.
#
# usage: scripts/lukho_speed.sh [BINARY]     (default target/release/mancala)
set -euo pipefail
bin=${1:-target/release/mancala}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for south in 0 3456789 1234567; do
  for threads in 2 1; do
    /usr/bin/time -o "$out/time" -f "%e s wall, %U s user, %M KB peak" \
      "$bin" lukho sweep --south "$south" --north all --race sequential --threads "$threads" --out "$out/sw" --json > "$out/report.json"
    python3 - "$out/report.json" "$south" "$threads" "$(cat "$out/time")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); s = r["summary"]; p = r["perpetual_sowings"]
print(f"south {sys.argv[2]:>7} threads {sys.argv[3]}: {r['games']} games in {r['seconds']:.2f} s = "
      f"{r['games_per_second'] / 1e6:.2f} M games/s ({sys.argv[4]}); perpetual openings "
      f"{s['perpetual_openings']} ({p['proven']} proven, {p['hits']} shared)")
PY
  done
done
for race in sequential lockstep speeds; do
  echo -n "$race: "
  "$bin" lukho sweep --south all --north all --race "$race" --dry-run --out "$out/dry" | tail -1
done
