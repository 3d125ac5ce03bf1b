#!/usr/bin/env bash
# Solve a fixed set of 26-30-seed Oware positions with a database, one line of JSON each,
# with wall time and peak RSS. Usage: scripts/oware_solve_set.sh DB_DIR [TIMEOUT_SECONDS]
# (build the database first: mancala oware db build --max-stones 24 --dir DB_DIR).
set -euo pipefail
db=${1:?database directory}
limit=${2:-300}
bin=${MANCALA:-target/release/mancala}
# Mover's row first (own indices 0..5), then the opponent's; the seed count is in the comment.
positions=(
  3,2,4,1,0,3,2,1,3,2,4,1   # 26
  0,5,1,2,3,2,1,1,4,0,6,1   # 26
  2,2,2,2,2,3,3,3,2,2,2,2   # 27
  4,0,3,5,1,1,2,3,3,0,4,2   # 28
  5,5,0,0,5,0,5,0,0,5,0,5   # 30
)
for p in "${positions[@]}"; do
  /usr/bin/time -f "{\"wall_seconds\":%e,\"peak_rss_kb\":%M}" -o /tmp/solve_time.json \
    timeout "$limit" "$bin" oware solve --pits "$p" --db "$db" --json > /tmp/solve_out.json || echo "{\"pits\":\"$p\",\"timeout\":$limit}"
  python3 - "$p" <<'PY'
import json, sys
try:
    o = json.load(open("/tmp/solve_out.json")); t = json.load(open("/tmp/solve_time.json"))
except Exception:
    sys.exit(0)
print(json.dumps({"pits": sys.argv[1], "seeds": sum(map(int, sys.argv[1].split(","))), "value": o["value"], "exact": o["exact"],
                  "best_moves": o["best_moves"], "pv_plies": len(o["pv"]), "nodes": o["nodes"], **t}))
PY
done
