#!/bin/bash
# Continue the full-family `lukho equilibrium` run of issue 18 (`lockstep`/`margin`) from its
# committed state, on this machine or a new one, and checkpoint it back. The row is certified
# (gap 0.025 at iteration 677, stop 42); a continuation moves it towards exact, and needs a
# larger VECTOR_BUDGET: at 677 the 60G held exactly the LP mix's support (10,112 vectors).
#
#   scripts/lukho_eq_continue.sh run [SECONDS]   # one sitting in the background (default 3 h)
#   scripts/lukho_eq_continue.sh checkpoint      # copy the state back into results/
#
# WORK (default /work/lukho-eq) holds the run's DIR (full-lockstep-margin/, its vectors: ~16 GB
# and more) and its log (full-lockstep-margin.log). A WORK without the DIR starts from the
# committed state: the first iteration then sweeps its LP mix's vectors again (about an hour,
# results/lukho/equilibrium/README.md "Running"). Vectors, the LP's warm start and the mixes'
# score files stay in WORK between sittings; only the state (a few MB) is committed.
# VECTOR_BUDGET (default 60G from stop 39, 50G before) caps the vectors' disk. At 34G (5,612
# vectors, iterations 586–598) an iteration swept 86–155 vectors and deleted as many: its 64
# new members and up to 91 returning ones swept again (1.2–2 s each), as the mixes' supports
# outgrew the budget; at 44G (iterations 605–612) 99–105 an iteration, 35–41 of them
# returning. Each step needs that much more free disk (a sitting also checks for one
# iteration's 7.1 GiB before it starts one).
# At 128 replies an iteration sweeps 280–570 new vectors (1.8–3.6 GB; 7,069 vectors were 44.9 GB
# at iteration 628), so 50G fills within a few iterations; 60G leaves about 20G free here.
# LP_TRACE=1 in the environment passes --lp-trace, which puts the LP's rounds in the log.
# REPLIES (default 128 from iteration 624, 64 before) sets --replies and
# --average-replies: the candidates added per iteration, all from the averaged mix's ranking.
# RESTRICTED_GAP (default 0.01 from stop 40; 0 before: exact) sets --restricted-gap, the
# duality gap in seeds each restricted game is solved to by regret matching⁺: 39 s against
# ~850 s for the exact LP at 10,721 members.
# The sitting runs at nice 19 under `setsid`, so it outlives this shell; `--time` keeps it
# from starting iterations after SECONDS, and a kill loses only the iteration in progress.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK:-/work/lukho-eq}
dir=$work/full-lockstep-margin
committed=$repo/results/lukho/equilibrium/full-lockstep-margin-seeded
case "${1:-}" in
run)
    (cd "$repo" && cargo build --release --quiet)
    mkdir -p "$dir"
    [ -e "$dir/state.lukho-eq" ] || cp "$committed/state.lukho-eq" "$dir/"
    rm -f "$dir/.equilibrium.lock"
    bin=$work/mancala-$(git -C "$repo" rev-parse --short HEAD)
    cp "$repo/target/release/mancala" "$bin"
    echo "--- sitting $(date -u +%FT%TZ) with $(basename "$bin")" >> "$dir.log"
    setsid nohup nice -n 19 "$bin" lukho equilibrium --race lockstep --payoff margin --out "$dir" \
        --replies "${REPLIES:-128}" --average 32 --average-weights anchored --average-replies "${REPLIES:-128}" --vector-budget "${VECTOR_BUDGET:-60G}" \
        --restricted-gap "${RESTRICTED_GAP:-0.01}" ${LP_TRACE:+--lp-trace} \
        --time "${2:-10800}" --exploit 0,6356799,6356984,6356991 >/dev/null 2>> "$dir.log" &
    echo "running (pid $!); progress: tail -f $dir.log"
    ;;
checkpoint)
    cp "$dir/state.lukho-eq" "$committed/state.lukho-eq"
    echo "state copied; iterations in $dir.log since the committed resume.log:"
    last=$(grep -a '^iteration ' "$committed/resume.log" | tail -1 | cut -d' ' -f2 | tr -d :)
    grep -a '^iteration \|^--- sitting' "$dir.log" | awk -v last="$last" '/^---/ || $2 + 0 > last'
    echo "(append the lines that belong to resume.log, under a '--- sitting' line saying what changed)"
    ;;
*)
    sed -n '2,/^set /{/^#/p}' "$0"
    exit 2
    ;;
esac
