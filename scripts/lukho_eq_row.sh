#!/bin/bash
# Run or continue one full-family `lukho equilibrium` row (all 6,356,992 choices a player) in
# the background, one sitting at a time, and checkpoint its state into results/.
#
#   scripts/lukho_eq_row.sh ROW run [SECONDS]   # one sitting (default 3 h of new iterations)
#   scripts/lukho_eq_row.sh ROW checkpoint      # copy the state back into results/
#
# ROW (race/payoff, and the committed directory under results/lukho/equilibrium/):
#   lockstep-margin           full-lockstep-margin-seeded
#   sequential-result         full-sequential-result-seeded
#   sequential-points         full-sequential-points        (first game of a series)
#   south-first-points        full-south-first-points
#   sequential-points-later   full-sequential-points-later  (any later game)
#   south-first-points-later  full-south-first-points-later
#
# WORK (default /work/lukho-eq) holds each row's DIR (WORK/ROW: the state, the payoff vectors,
# the LP's warm start and the averaged mixes' score files) and its log (WORK/ROW.log). A DIR
# without a state starts from the committed one; a row with none committed starts a new run
# seeded with the exact margin mix of its race (`--seed`: both restricted sets begin with its
# choices). A new machine sweeps the vectors the state names again as they are needed (about
# a second each on 2 cores). Only the state (a few MB) is committed, with the log's iteration
# lines appended to the committed resume.log by hand.
#
# VECTOR_BUDGET (default 60G for lockstep-margin, 8G for the others) caps the vectors' disk:
# `df` first; a vector is 6.4 MB (an i8 per choice and race outcome, summed). REPLIES
# (default 128 for lockstep-margin, 64 for the others) sets --replies and --average-replies;
# RESTRICTED_GAP (default 0.01, in the payoff's unit) the duality gap each restricted game is
# solved to by regret matching⁺ (an iteration that adds no member is followed by an exact
# LP, so a run still ends exact). The sitting runs at nice 19 under `setsid`, so it outlives
# this shell; `--time` keeps it from starting iterations after SECONDS, and a kill loses only
# the iteration in progress. LP_TRACE=1 passes --lp-trace (the LP's rounds in the log).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK:-/work/lukho-eq}
eq=$repo/results/lukho/equilibrium
row=${1:-}
budget=8G replies=64 average=12
case "$row" in
lockstep-margin)    race=lockstep payoff=margin committed=full-lockstep-margin-seeded
                    seed=full-sequential-margin budget=60G replies=128 average=32 ;;
sequential-result)  race=sequential payoff=result committed=full-sequential-result-seeded
                    seed=full-sequential-margin ;;
sequential-points*|south-first-points*)
    race=${row%%-points*} payoff=points${row#*-points} committed=full-$row
    seed=full-sequential-margin
    [ "$race" = south-first ] && seed=full-south-first-margin-seeded ;;
*)  sed -n '2,/^set /{/^#/p}' "$0"; exit 2 ;;
esac
dir=$work/$row
case "${2:-}" in
run)
    (cd "$repo" && cargo build --release --quiet)
    mkdir -p "$dir"
    [ -e "$dir/state.lukho-eq" ] || [ ! -e "$eq/$committed/state.lukho-eq" ] || cp "$eq/$committed/state.lukho-eq" "$dir/"
    seeding=()
    [ -e "$dir/state.lukho-eq" ] || seeding=(--seed "$eq/$seed/equilibrium.json")
    rm -f "$dir/.equilibrium.lock"
    bin=$work/mancala-$(git -C "$repo" rev-parse --short HEAD)
    cp "$repo/target/release/mancala" "$bin"
    echo "--- sitting $(date -u +%FT%TZ) with $(basename "$bin")" >> "$dir.log"
    r=${REPLIES:-$replies}
    setsid nohup nice -n 19 "$bin" lukho equilibrium --race "$race" --payoff "$payoff" --out "$dir" \
        "${seeding[@]}" --replies "$r" --average "$average" --average-weights anchored --average-replies "$r" \
        --vector-budget "${VECTOR_BUDGET:-$budget}" --restricted-gap "${RESTRICTED_GAP:-0.01}" ${LP_TRACE:+--lp-trace} \
        --time "${3:-10800}" --exploit 0,6356799,6356984,6356991 >/dev/null 2>> "$dir.log" &
    echo "running (pid $!); progress: tail -f $dir.log"
    ;;
checkpoint)
    mkdir -p "$eq/$committed"
    cp "$dir/state.lukho-eq" "$eq/$committed/state.lukho-eq"
    [ ! -e "$dir/equilibrium.json" ] || cp "$dir/equilibrium.json" "$eq/$committed/"
    echo "state copied; iterations in $dir.log since the committed resume.log:"
    last=$(grep -a '^iteration ' "$eq/$committed/resume.log" 2>/dev/null | tail -1 | cut -d' ' -f2 | tr -d : || true)
    grep -a '^iteration \|^--- sitting' "$dir.log" | awk -v last="${last:-0}" '/^---/ || $2 + 0 > last'
    echo "(append the lines that belong to resume.log, under a '--- sitting' line saying what changed)"
    ;;
*)  sed -n '2,/^set /{/^#/p}' "$0"; exit 2 ;;
esac
