#!/usr/bin/env bash
# Re-certify a committed full-game equilibrium answer from its own mixes: `lukho exploit` plays
# the answer's certificate mixes against a best reply over the whole family (every member of a
# mix is one sweep of 6,356,992 choices) in the answer's own race and payoff, and the bounds it
# measures must be the committed certificate's (within 1e-9). Appends one row to
# results/lukho/equilibrium/recertified.csv and prints it.
#
#   scripts/lukho_recertify.sh ROW WORK [BIN=target/release/mancala]
#
# ROW is a directory of results/lukho/equilibrium (full-sequential-margin, ...); WORK is the
# run directory of the payoff vectors (an equilibrium run's directory of the same race and
# payoff serves: its vectors are not swept again). Resumable: rerun the same command after a
# stop. The vectors stay in WORK (delete them when the row is done: they can be swept again).
# Cost, quiet machine, 2 threads: about 5.7 s a member under `sequential` (1,017 members:
# 1.6 h), twice the members for an asymmetric race (south-first).
set -euo pipefail
row=${1:?ROW}; work=${2:?WORK}; bin=${3:-target/release/mancala}
cd "$(dirname "$0")/.."
answer=results/lukho/equilibrium/$row/equilibrium.json
[ -f "$answer" ] || { echo "error: ROW: no $answer" >&2; exit 2; }
read -r race payoff family chain keep_one < <(python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
r = a["rules"]
print(a["race"], a["payoff"], a["family"], r["chain"], str(r["keep_one"]).lower())' "$answer")
flags=(--race "$race" --payoff "$payoff" --family "$family" --chain "$chain")
[ "$keep_one" = true ] && flags+=(--keep-one)
mkdir -p "$work"
out=$work/exploit-$row.json
/usr/bin/time -v nice -n 19 "$bin" lukho exploit --mix "$answer" "${flags[@]}" --out "$work" --json \
    >"$out.tmp" 2>"$work/exploit-$row.log"
mv "$out.tmp" "$out"
csv=results/lukho/equilibrium/recertified.csv
python3 - "$answer" "$out" "$csv" "$row" "$(sha256sum "$bin" | cut -c1-12)" "$work/exploit-$row.log" <<'EOF'
import json, os, re, sys, datetime
answer, measured, csv, row, binary, log = sys.argv[1:]
a = json.load(open(answer))["certificate"]
m = json.load(open(measured))
rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(log).read())
lower, upper = m["south_guarantees"], m["north_concedes"]
same = abs(lower - a["lower"]) <= 1e-9 and abs(upper - a["upper"]) <= 1e-9
head = "row,race,payoff,south_support,north_support,committed_lower,committed_upper,measured_lower,measured_upper,same,games,seconds,peak_rss_kib,binary_sha256,date\n"
line = ",".join(str(x) for x in [row, m["race"], m["payoff"], m["south_support"], m["north_support"],
    repr(a["lower"]), repr(a["upper"]), repr(lower), repr(upper), "yes" if same else "NO", m["games"],
    round(m["seconds"]), rss.group(1) if rss else "", binary, datetime.date.today().isoformat()])
new = not os.path.exists(csv)
with open(csv, "a") as f:
    if new:
        f.write(head)
    f.write(line + "\n")
print(head + line, end="\n")
sys.exit(0 if same else 1)
EOF
