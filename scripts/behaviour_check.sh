#!/usr/bin/env bash
# Behaviour fingerprint of the `mancala` binary, for behaviour-preserving refactors.
#
# Usage: scripts/behaviour_check.sh BIN OUTDIR
#
# Runs a fixed set of commands (Oware databases, solve and replay; Kiothi tables, perft,
# openings, solve and replay; Lukho openings, play, races, sweeps, shards and merge, sample,
# equilibrium, replies; bad input) with BIN and writes each check's normalized output to
# OUTDIR/<check>.txt (first line: the command). Compare two binaries with
#
#     scripts/behaviour_check.sh OLD_BIN /tmp/old && scripts/behaviour_check.sh NEW_BIN /tmp/new
#     diff -r /tmp/old /tmp/new
#
# Only what legitimately varies between runs is normalized away: wall-clock fields (seconds,
# rates such as games/s or nodes/s, iteration times), worker-thread counts, the scratch
# directory's path, and the split of Lukho's shared perpetual-cycle statistics between
# "proven" and "hit" in multi-threaded runs (their sum is kept; a --threads 1 run keeps all
# three). Node counts, values, checksums and aggregates are kept: they are the signature.
# Database and part files are byte-deterministic and recorded by sha256 (lock files, which name
# the process holding them, are left out).
# Runs in about 1.5 minutes on 2 cores, up to 2.5 under load (the Kiothi midgame perft at depth 5 is ~10 s, the
# Oware/Kiothi component solves ~5 s, the equilibria ~20 s).
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 BIN OUTDIR" >&2
  exit 2
fi
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -x "$BIN" ] || { echo "not executable: $BIN" >&2; exit 2; }
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
# Only a directory this script wrote (or an empty one) is cleared.
if [ -n "$(ls -A "$OUT")" ]; then
  [ -e "$OUT/.behaviour_check" ] || { echo "$OUT is not empty and not an earlier output of this script" >&2; exit 2; }
  rm -rf "${OUT:?}"/* "$OUT/.behaviour_check"
fi
touch "$OUT/.behaviour_check"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/behaviour_check.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" # every path below is relative, so outputs that echo paths are stable
T=$WORK/.cap
mkdir -p "$T"

START=$(date +%s)
say() { echo "[$(($(date +%s) - START)) s] $*" >&2; }

# jq if available, else python3 (BEHAVIOUR_CHECK_NO_JQ=1 forces python3; compare only runs made
# the same way: the two print JSON differently).
if [ -z "${BEHAVIOUR_CHECK_NO_JQ:-}" ] && command -v jq >/dev/null 2>&1; then HAVE_JQ=1; else HAVE_JQ=0; fi

# ---- normalizers ------------------------------------------------------------------------

# Timing keys removed from every JSON object (recursively). `rate` is NOT here: in
# `lukho sample` it is a statistic; `time` is the --time flag echoed back, kept.
TIMING_KEYS='seconds lp_seconds reply_seconds total_seconds elapsed wall_seconds games_per_second nodes_per_second games_per_core_second core_hours threads timestamp'

JQ_DEFS='
def strip: walk(if type == "object"
  then del(.seconds, .lp_seconds, .reply_seconds, .total_seconds, .elapsed, .wall_seconds, .games_per_second, .nodes_per_second,
           .games_per_core_second, .core_hours, .threads, .timestamp)
  else . end);
def perp: if type == "object" and (.perpetual_sowings | type) == "object"
  then .perpetual_sowings = {proven_plus_hits: (.perpetual_sowings.proven + .perpetual_sowings.hits)}
  else . end;
'

PY_NORM='
import json, sys
mode, perp = sys.argv[1], sys.argv[2] == "perp"
drop = set(sys.argv[3].split())
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in drop}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
def fix(v):
    v = strip(v)
    if perp and isinstance(v, dict) and isinstance(v.get("perpetual_sowings"), dict):
        p = v["perpetual_sowings"]
        v["perpetual_sowings"] = {"proven_plus_hits": p["proven"] + p["hits"]}
    return v
text = sys.stdin.read()
if mode == "json":
    if text.strip():
        print(json.dumps(fix(json.loads(text)), sort_keys=True, indent=2))
else:
    for line in text.splitlines():
        if line.strip():
            print(json.dumps(fix(json.loads(line)), sort_keys=True, separators=(",", ":")))
'

# normj json|jsonl [perp] < in > out : sorted keys, timing keys removed; not JSON -> raw text.
normj() {
  local mode=$1 extra=${2:-none} filter
  cat >"$T/nj_in"
  if [ "$HAVE_JQ" = 1 ]; then
    filter='strip'
    [ "$extra" = perp ] && filter='strip | perp'
    if [ "$mode" = json ]; then
      jq -S "$JQ_DEFS $filter" <"$T/nj_in" >"$T/nj_out" 2>/dev/null || { echo "# (not JSON)"; normt <"$T/nj_in"; return 0; }
    else
      jq -c -S "$JQ_DEFS $filter" <"$T/nj_in" >"$T/nj_out" 2>/dev/null || { echo "# (not JSON lines)"; normt <"$T/nj_in"; return 0; }
    fi
  else
    python3 -c "$PY_NORM" "$mode" "$extra" "$TIMING_KEYS" <"$T/nj_in" >"$T/nj_out" 2>/dev/null ||
      { echo "# (not JSON)"; normt <"$T/nj_in"; return 0; }
  fi
  cat "$T/nj_out"
}

# normt < in > out : human-readable text with times, rates, thread counts and paths masked.
normt() {
  sed -E \
    -e "s#${WORK}#<WORK>#g" \
    -e 's/ in +[0-9]+(\.[0-9]+)? s\b/ in <T> s/g' \
    -e 's/(^|[ (+,])[0-9]+\.[0-9]+ s\b/\1<T> s/g' \
    -e 's/\( *[0-9]+(\.[0-9]+)? M\/s\)/(<R> M\/s)/g' \
    -e 's/[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)? nodes\/s/<R> nodes\/s/g' \
    -e 's/[0-9]+(\.[0-9]+)? games\/s/<R> games\/s/g' \
    -e 's/[0-9]+(\.[0-9]+)? M games\/s/<R> M games\/s/g' \
    -e 's/[0-9]+ threads/<N> threads/g' \
    -e 's/this machine has [0-9.]+ GiB available/this machine has <M> GiB available/' \
    -e 's/, [0-9]+(\.[0-9]+)? s \(\+[0-9]+(\.[0-9]+)? s\)$/, <T> s (+<T> s)/' \
    -e 's/\r/\n/g'
}

# ---- runners ------------------------------------------------------------------------------

# cap CMD... : run, stdout -> $T/o, stderr -> $T/e, exit status -> RC (never aborts).
cap() {
  set +e
  "$@" >"$T/o" 2>"$T/e"
  RC=$?
  set -e
}
# m ARGS... : the binary.
m() { "$BIN" "$@"; }
# header NAME ARGS... : start OUT/NAME.txt with the command line.
header() {
  local name=$1
  shift
  say "$name"
  printf '# $ mancala %s\n' "$*" >"$OUT/$name.txt"
}
# rc_tail : exit status and stderr when a run that should succeed did not.
rc_tail() {
  if [ "$RC" -ne 0 ]; then
    echo "# exit $RC"
    echo "# stderr:"
    normt <"$T/e"
  fi
}
# cj NAME ARGS... : JSON on stdout.      cjl: JSON lines.      cjp: JSON, perpetual stats summed.
cj() { local n=$1; shift; header "$n" "$@"; cap m "$@"; { normj json <"$T/o"; rc_tail; } >>"$OUT/$n.txt"; }
cjl() { local n=$1; shift; header "$n" "$@"; cap m "$@"; { normj jsonl <"$T/o"; rc_tail; } >>"$OUT/$n.txt"; }
# ct NAME ARGS... : text on stdout (stderr kept too, normalized).
ct() {
  local n=$1
  shift
  header "$n" "$@"
  cap m "$@"
  { normt <"$T/o"; echo "# stderr:"; normt <"$T/e"; [ "$RC" -eq 0 ] || echo "# exit $RC"; } >>"$OUT/$n.txt"
}
# ce NAME ARGS... : the error contract: exit status, stdout, stderr.
ce() {
  local n=$1
  shift
  header "$n" "$@"
  cap m "$@"
  { echo "# exit $RC"; echo "# stdout:"; normt <"$T/o"; echo "# stderr:"; normt <"$T/e"; } >>"$OUT/$n.txt"
}
# ce_stdin NAME FILE ARGS... : the same with FILE on stdin.
ce_stdin() {
  local n=$1 f=$2
  shift 2
  header "$n" "$@" "< $f"
  set +e
  m "$@" <"$f" >"$T/o" 2>"$T/e"
  RC=$?
  set -e
  { echo "# exit $RC"; echo "# stdout:"; normt <"$T/o"; echo "# stderr:"; normt <"$T/e"; } >>"$OUT/$n.txt"
}
# append NAME TITLE : a section header in OUT/NAME.txt.
section() { echo "## $2" >>"$OUT/$1.txt"; }
# shas DIR : sha256 of every file under DIR, sorted by name.
shas() {
  if [ -d "$1" ]; then (cd "$1" && find . -type f ! -name '.*.lock' | LC_ALL=C sort | xargs -r sha256sum); else echo "# $1 missing"; fi
}
# sha FILE : sha256 of one file (named as given), or a note that it is missing.
sha() { if [ -e "$1" ]; then sha256sum "$1"; else echo "# $1 missing"; fi; }
# fileinfo FILE : sha256, line count and the first 5 lines.
fileinfo() { if [ -e "$1" ]; then sha256sum "$1"; wc -l <"$1"; head -5 "$1"; else echo "# $1 missing"; fi; }
# dump FILE : its content, or a note that it is missing.
dump() { if [ -e "$1" ]; then cat "$1"; else echo "# $1 missing"; fi; }
# dumpj FILE : normalized JSON content, or a note that it is missing.
dumpj() { if [ -e "$1" ]; then normj json <"$1"; else echo "# $1 missing"; fi; }
# exists PATH : for "writes nothing" checks.
exists() { if [ -e "$1" ]; then echo "# $1 exists"; else echo "# $1 absent"; fi; }

# ======================================================================================
# Oware
# ======================================================================================

# -- database, 0..=14 seeds ---------------------------------------------------------------
ct oware_db_build14 oware db build --max-stones 14 --dir ow14
{ section oware_db_build14 "files (sha256)"; shas ow14 >>"$OUT/oware_db_build14.txt"; }
# Resumable: a second build keeps every layer.
ct oware_db_build14_resume oware db build --max-stones 14 --dir ow14
# Single-threaded build of a prefix: same bytes as the threaded one (compare with the above).
ct oware_db_build12_threads1 oware db build --max-stones 12 --dir ow12t1 --threads 1
{ section oware_db_build12_threads1 "files (sha256)"; shas ow12t1 >>"$OUT/oware_db_build12_threads1.txt"; }
ct oware_db_verify14 oware db verify --dir ow14
cj oware_db_stats14_json oware db stats --dir ow14 --json
ct oware_db_stats14_text oware db stats --dir ow14 --csv stats.csv --histogram-csv hist.csv --svg wdl.svg
{
  section oware_db_stats14_text "stats.csv"; dump stats.csv
  echo "## hist.csv"; dump hist.csv
  echo "## wdl.svg (sha256)"; sha wdl.svg
} >>"$OUT/oware_db_stats14_text.txt"
ct oware_db_export_csv_0-6 oware db export --dir ow14 --stones 0..=6 --format csv --out ow-0-6.csv
{
  section oware_db_export_csv_0-6 "sha256, lines, head"
  fileinfo ow-0-6.csv
} >>"$OUT/oware_db_export_csv_0-6.txt"
ct oware_db_export_jsonl_10 oware db export --dir ow14 --stones 10 --format jsonl --out ow-10.jsonl
{ section oware_db_export_jsonl_10 "sha256, lines, head"; fileinfo ow-10.jsonl; } >>"$OUT/oware_db_export_jsonl_10.txt"
ct oware_db_export_jsonl_1 oware db export --dir ow14 --stones 1 --format jsonl --out ow-1.jsonl
{ section oware_db_export_jsonl_1 "ow-1.jsonl"; dump ow-1.jsonl; } >>"$OUT/oware_db_export_jsonl_1.txt"

# -- solve: with the database (lookup, search with probes, component) and pure search --------
# name:pits (mover's row first)
OWARE_POS=(
  p6:0,0,0,1,2,1,0,0,1,0,0,1 # tests/oware_cli.rs, 6 seeds
  p7:0,0,0,0,1,2,1,0,0,0,0,3 # README and docs/cli.md, 7 seeds
  p14:4,0,0,1,1,0,3,0,2,0,1,2 # 14 seeds: a db lookup
  p16a:0,1,2,0,1,3,2,0,1,1,2,3 # 16 seeds: search with probes
  p16b:1,0,2,1,0,3,0,1,0,2,1,5 # 16 seeds: search with probes, budget then component
  p18:1,2,0,0,3,1,2,1,1,0,2,3 # 18 seeds: a short forced line
)
for e in "${OWARE_POS[@]}"; do
  n=${e%%:*} p=${e#*:}
  cj "oware_solve_${n}_db" oware solve --pits "$p" --db ow14 --json
done
for n in p6 p7; do
  for e in "${OWARE_POS[@]}"; do [ "${e%%:*}" = "$n" ] && p=${e#*:}; done
  cj "oware_solve_${n}_search" oware solve --pits "$p" --json
done
# Depth-limited (honest bounds), with and without the database (scripts/oware_solve_set.sh).
for e in d26:3,2,4,1,0,3,2,1,3,2,4,1 d30:5,5,0,0,5,0,5,0,0,5,0,5 d18:2,1,0,3,1,2,1,0,2,1,3,2; do
  n=${e%%:*} p=${e#*:}
  cj "oware_solve_${n}_depth9_db" oware solve --pits "$p" --db ow14 --depth 9 --json
  cj "oware_solve_${n}_depth9_search" oware solve --pits "$p" --depth 9 --json
done
ct oware_solve_p7_db_text oware solve --pits 0,0,0,0,1,2,1,0,0,0,0,3 --db ow14
ct oware_solve_d18_depth8_text oware solve --pits 2,1,0,3,1,2,1,0,2,1,3,2 --db ow14 --depth 8

# -- replay -----------------------------------------------------------------------------------
cjl oware_replay_5-0-3_jsonl oware replay --moves 5,0,3 --jsonl
cj oware_replay_5-0-3_json oware replay --moves 5,0,3 --json
ct oware_replay_5-0-3_text oware replay --moves 5,0,3
cjl oware_replay_cycle_own-rows oware replay --start 0,0,0,0,0,0,1,0,0,0,0,1 --to-move north --cycle own-rows \
  --moves 5,0,0,1,1,2,2,3,3,4,4,5 --jsonl
cjl oware_replay_cycle_split oware replay --start 0,0,0,0,0,0,1,0,0,0,0,1 --to-move north \
  --moves 5,0,0,1,1,2,2,3,3,4,4,5 --jsonl
cjl oware_replay_awari oware replay --moves 5,0,3,1,2,4,0,5 --grand-slam awari --jsonl

# -- rule variants: grand slam awari / forbidden, 0..=10 seeds -------------------------------
for gs in awari forbidden; do
  ct "oware_db_build10_${gs}" oware db build --max-stones 10 --dir "ow-$gs" --grand-slam "$gs"
  { section "oware_db_build10_${gs}" "files (sha256)"; shas "ow-$gs" >>"$OUT/oware_db_build10_${gs}.txt"; }
  ct "oware_db_verify10_${gs}" oware db verify --dir "ow-$gs" --grand-slam "$gs"
  cj "oware_db_stats10_${gs}_json" oware db stats --dir "ow-$gs" --grand-slam "$gs" --json
  ct "oware_db_export_csv_0-5_${gs}" oware db export --dir "ow-$gs" --grand-slam "$gs" --stones 0..=5 --format csv --out "ow-$gs.csv"
  { section "oware_db_export_csv_0-5_${gs}" "sha256"; sha "ow-$gs.csv"; } >>"$OUT/oware_db_export_csv_0-5_${gs}.txt"
  cj "oware_solve_p6_db_${gs}" oware solve --pits 0,0,0,1,2,1,0,0,1,0,0,1 --db "ow-$gs" --grand-slam "$gs" --json
  cj "oware_solve_p7_search_${gs}" oware solve --pits 0,0,0,0,1,2,1,0,0,0,0,3 --grand-slam "$gs" --json
done
ce oware_solve_p7_search_own-rows oware solve --pits 0,0,0,0,1,2,1,0,0,0,0,3 --cycle own-rows --json

# ======================================================================================
# Kiothi
# ======================================================================================

# -- positions (written out so a diff of OUTDIR shows them too) -----------------------------
F=false
NOKI="[$F,$F,$F,$F,$F,$F,$F,$F,$F,$F,$F,$F,$F,$F,$F,$F,$F,$F,$F,$F]"
IN=inputs # relative (command lines and messages name it); copied to OUTDIR/inputs at the end
mkdir -p "$IN"
# src/games/kiothi/tests.rs tiny_opening(): turn 1, S2 S7 N3 N8 one warrior each.
echo '{"game":"kiothi","pits":[0,0,1,0,0,0,0,1,0,0,0,0,0,1,0,0,0,0,1,0],"stores":[0,0],"to_move":"south","nki":'"$NOKI"',"turn":1}' >"$IN/kiothi_tiny_opening.json"
# perpetual_position(): 8:2 and 9:1 never end (K7).
echo '{"game":"kiothi","pits":[1,0,1,0,1,0,2,1,2,2,1,0,1,0,1,0,1,0,1,2],"stores":[0,0],"to_move":"south","nki":'"$NOKI"',"turn":3}' >"$IN/kiothi_perpetual.json"
# midgame(): the default setup after the two redistributions below (= results/kiothi/positions/midgame.json).
echo '{"game":"kiothi","pits":[3,1,0,2,0,3,5,5,5,5,2,0,1,0,0,9,5,9,5,0],"stores":[0,0],"to_move":"south","nki":[true,true,false,true,false,true,true,true,true,true,true,false,true,false,false,true,true,true,true,false],"turn":3}' >"$IN/kiothi_midgame.json"
# endgame() (= results/kiothi/positions/endgame20.json): 20 warriors, nki marks, prisons 20/23.
echo '{"game":"kiothi","pits":[2,0,1,3,0,1,0,2,0,1,1,2,0,0,3,1,0,1,2,0],"stores":[20,23],"to_move":"south","nki":[false,false,false,true,false,false,false,false,false,false,true,false,false,false,true,false,false,false,false,false],"turn":21}' >"$IN/kiothi_endgame20.json"
# results/kiothi/positions/endgame10.json and endgame14.json.
echo '{"game":"kiothi","pits":[1,0,0,2,0,1,0,0,0,1,0,1,0,0,2,0,0,1,1,0],"stores":[0,0],"to_move":"south","nki":'"$NOKI"',"turn":5}' >"$IN/kiothi_endgame10.json"
echo '{"game":"kiothi","pits":[1,0,0,2,0,1,0,3,0,1,0,1,0,0,2,0,0,1,1,1],"stores":[0,0],"to_move":"south","nki":[false,false,false,true,false,false,false,false,false,false,false,false,false,false,true,false,false,false,false,false],"turn":5}' >"$IN/kiothi_endgame14.json"
# tests/kiothi_solve.rs: S3 = 1, N5 = 1 (nki), South to move, turn 7: +2 after 11 plies.
echo '{"game":"kiothi","pits":[0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0],"stores":[0,0],"to_move":"south","nki":[false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,true,false,false,false,false],"turn":7}' >"$IN/kiothi_two_warriors.json"
# tests/kiothi_solve.rs cli_solve_reads_the_tables_with_db: 4 warriors (nki 15, 3) and 6 warriors (nki 15).
echo '{"game":"kiothi","pits":[0,2,0,1,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0],"stores":[0,0],"to_move":"south","nki":[false,false,false,true,false,false,false,false,false,false,false,false,false,false,false,true,false,false,false,false],"turn":7}' >"$IN/kiothi_small4.json"
echo '{"game":"kiothi","pits":[0,2,0,1,0,0,0,1,0,0,0,1,0,0,0,1,0,0,0,0],"stores":[0,0],"to_move":"south","nki":[false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,true,false,false,false,false],"turn":7}' >"$IN/kiothi_big6.json"
# Bad inputs: the start (turn 1) for solve, and a truncated file.
echo '{"game":"kiothi","pits":[1,2' >"$IN/kiothi_bad_json.json"
KOPEN="4,5>0*2,1*1,3*2,12*1,15*4 4,9>0*1,5*3,10*2,17*4"
KGAME="$KOPEN 9:5 8:5 9:2 9:2 8:7 9:1"

# -- tables, 0..=6 warriors --------------------------------------------------------------------
ct kiothi_db_build6 kiothi db build --max-warriors 6 --dir kt6
{ section kiothi_db_build6 "files (sha256)"; shas kt6 >>"$OUT/kiothi_db_build6.txt"; }
ct kiothi_db_build6_resume kiothi db build --max-warriors 6 --dir kt6
ct kiothi_db_build5_threads1 kiothi db build --max-warriors 5 --dir kt5t1 --threads 1
{ section kiothi_db_build5_threads1 "files (sha256)"; shas kt5t1 >>"$OUT/kiothi_db_build5_threads1.txt"; }
ct kiothi_db_verify6 kiothi db verify --dir kt6
cj kiothi_db_stats6_json kiothi db stats --dir kt6 --json
ct kiothi_db_stats6_text kiothi db stats --dir kt6 --csv kstats.csv --histogram-csv khist.csv --svg kwdl.svg
{
  section kiothi_db_stats6_text "kstats.csv"; dump kstats.csv
  echo "## khist.csv"; dump khist.csv
  echo "## kwdl.svg (sha256)"; sha kwdl.svg
} >>"$OUT/kiothi_db_stats6_text.txt"
ct kiothi_db_export_csv_0-4 kiothi db export --dir kt6 --warriors 0..=4 --format csv --out kt-0-4.csv
{
  section kiothi_db_export_csv_0-4 "sha256, lines, head"
  fileinfo kt-0-4.csv
} >>"$OUT/kiothi_db_export_csv_0-4.txt"
ct kiothi_db_export_jsonl_4 kiothi db export --dir kt6 --warriors 4 --format jsonl --out kt-4.jsonl
{ section kiothi_db_export_jsonl_4 "sha256, lines, head"; fileinfo kt-4.jsonl; } >>"$OUT/kiothi_db_export_jsonl_4.txt"
ct kiothi_db_export_jsonl_1 kiothi db export --dir kt6 --warriors 1 --format jsonl --out kt-1.jsonl
{ section kiothi_db_export_jsonl_1 "kt-1.jsonl"; dump kt-1.jsonl; } >>"$OUT/kiothi_db_export_jsonl_1.txt"

# -- perft (expected counts: src/games/kiothi/tests.rs) --------------------------------------
cj kiothi_perft_start_d1 kiothi perft --depth 1 --json
cj kiothi_perft_start_d1_5x5_up-to-2 kiothi perft --depth 1 --setup 5x5 --redistribute up-to-2 --json
cj kiothi_perft_start_d1_5x6 kiothi perft --depth 1 --setup 5x6 --json
for d in 1 2 3 4 5; do cj "kiothi_perft_tiny_d$d" kiothi perft --position "$IN/kiothi_tiny_opening.json" --depth "$d" --json; done
cj kiothi_perft_tiny_d3_variants kiothi perft --position "$IN/kiothi_tiny_opening.json" --depth 3 \
  --redistribute up-to-2 --nki-clear pass --max-relays 2 --json
for d in 1 2 3 4 5; do cj "kiothi_perft_midgame_d$d" kiothi perft --position "$IN/kiothi_midgame.json" --depth "$d" --json; done
cj kiothi_perft_midgame_d3_divide kiothi perft --position "$IN/kiothi_midgame.json" --depth 3 --divide --json
ct kiothi_perft_midgame_d2_divide_text kiothi perft --position "$IN/kiothi_midgame.json" --depth 2 --divide
for d in 6 8; do cj "kiothi_perft_endgame20_d$d" kiothi perft --position "$IN/kiothi_endgame20.json" --depth "$d" --json; done
cj kiothi_perft_endgame20_d6_pass kiothi perft --position "$IN/kiothi_endgame20.json" --depth 6 --nki-clear pass --json
cj kiothi_perft_endgame20_d7_divide kiothi perft --position "$IN/kiothi_endgame20.json" --depth 7 --divide --json
cj kiothi_perft_perpetual_d5 kiothi perft --position "$IN/kiothi_perpetual.json" --depth 5 --json
cj kiothi_perft_perpetual_d4_relays1000 kiothi perft --position "$IN/kiothi_perpetual.json" --depth 4 --max-relays 1000 --json

# -- openings --------------------------------------------------------------------------------
ct kiothi_openings_count_text kiothi openings --count
cj kiothi_openings_count_json kiothi openings --count --json
cj kiothi_openings_count_5x5_up-to-2 kiothi openings --count --setup 5x5 --redistribute up-to-2 --json
cj kiothi_openings_count_5x6 kiothi openings --count --setup 5x6 --json
cj kiothi_openings_sample kiothi openings --sample 3 --replies 2 --depth 3 --seed 5 --json --out kopen.csv
{
  section kiothi_openings_sample "kopen.csv (seconds column masked)"
  if [ -e kopen.csv ]; then awk 'NR == 1 { print; next } { sub(/,[0-9.]+$/, ",<T>"); print }' kopen.csv; else echo "# kopen.csv missing"; fi
} >>"$OUT/kiothi_openings_sample.txt"

# -- solve -------------------------------------------------------------------------------------
cj kiothi_solve_two_warriors kiothi solve --position "$IN/kiothi_two_warriors.json" --json
cj kiothi_solve_two_warriors_depth1 kiothi solve --position "$IN/kiothi_two_warriors.json" --depth 1 --json
cj kiothi_solve_two_warriors_nodes50 kiothi solve --position "$IN/kiothi_two_warriors.json" --nodes 50 --json
cj kiothi_solve_endgame10_search kiothi solve --position "$IN/kiothi_endgame10.json" --json
cj kiothi_solve_endgame10_db kiothi solve --position "$IN/kiothi_endgame10.json" --db kt6 --json
cj kiothi_solve_endgame14_component kiothi solve --position "$IN/kiothi_endgame14.json" --json
cj kiothi_solve_endgame14_db kiothi solve --position "$IN/kiothi_endgame14.json" --db kt6 --json
cj kiothi_solve_small4_db kiothi solve --position "$IN/kiothi_small4.json" --db kt6 --json
cj kiothi_solve_small4_search kiothi solve --position "$IN/kiothi_small4.json" --json
cj kiothi_solve_big6_db kiothi solve --position "$IN/kiothi_big6.json" --db kt6 --json
cj kiothi_solve_endgame20_depth6 kiothi solve --position "$IN/kiothi_endgame20.json" --depth 6 --json
cj kiothi_solve_endgame20_depth8_db kiothi solve --position "$IN/kiothi_endgame20.json" --depth 8 --db kt6 --json
cj kiothi_solve_perpetual_depth4 kiothi solve --position "$IN/kiothi_perpetual.json" --depth 4 --json
cj kiothi_solve_midgame_depth3 kiothi solve --position "$IN/kiothi_midgame.json" --depth 3 --json
ct kiothi_solve_endgame10_text kiothi solve --position "$IN/kiothi_endgame10.json"

# -- replay ------------------------------------------------------------------------------------
cjl kiothi_replay_game_jsonl kiothi replay --moves "$KGAME" --jsonl
ct kiothi_replay_game_text kiothi replay --moves "$KGAME"
cjl kiothi_replay_start_5x6 kiothi replay --setup 5x6 --jsonl
cjl kiothi_replay_from_endgame20 kiothi replay --position "$IN/kiothi_endgame20.json" --moves "0:1 1:1 0:1 1:1 3:1 0:1 3:1 2:1" --jsonl
ce err_kiothi_replay_illegal_from_position kiothi replay --position "$IN/kiothi_endgame20.json" --moves "0:1 0:1" --jsonl

# ======================================================================================
# Lukho
# ======================================================================================

# -- openings: id <-> choice -------------------------------------------------------------------
for id in 0 1 9 10 12345 27961 1234567 3456789 4000000 6356991; do
  cj "lukho_opening_id$id" lukho opening --id "$id" --json
done
ct lukho_opening_id12345_text lukho opening --id 12345
ct lukho_opening_remove_drop_text lukho opening --remove 3,0,0,0,0,0,0,0 --drop 2@5
cj lukho_opening_remove_drop_json lukho opening --remove 0,0,0,0,3,3,3,1 --drop 9@3 --json
cj lukho_opening_id0_keep-one lukho opening --id 0 --keep-one --json
cj lukho_opening_id12345_keep-one lukho opening --id 12345 --keep-one --json

# -- play and races ------------------------------------------------------------------------------
# name|South remove|South drop|North remove|North drop
PAIRS=(
  "hand|0,0,0,0,0,0,0,1|0@0|0,0,0,0,0,0,0,0|0@0"
  "ones|1,1,1,1,1,1,1,1|0@0|0,0,0,0,0,0,1,2|1@4"
  "ids|2,1,1,3,3,0,2,3|3@1|0,3,2,2,1,2,1,0|7@2"
  "perpetual|0,3,2,2,1,2,1,0|7@2|0,0,0,2,0,1,1,0|3@4"
)
for e in "${PAIRS[@]}"; do
  IFS='|' read -r n sr sd nr nd <<<"$e"
  P=(--south-remove "$sr" --south-drop "$sd" --north-remove "$nr" --north-drop "$nd")
  for r in south-first north-first lockstep-south lockstep-north; do
    cj "lukho_play_${n}_${r}" lukho play "${P[@]}" --race "$r" --json
  done
  cj "lukho_races_${n}" lukho races "${P[@]}" --json
done
P=(--south-remove 1,1,1,1,1,1,1,1 --south-drop 0@0 --north-remove 0,0,0,0,0,0,1,2 --north-drop 1@4)
ct lukho_races_ones_text lukho races "${P[@]}"
cjl lukho_races_ones_jsonl lukho races "${P[@]}" --jsonl
cj lukho_races_ones_chain-en lukho races "${P[@]}" --chain en --json
for k in 0 3 105 209; do cj "lukho_play_ones_speeds$k" lukho play "${P[@]}" --race "speeds:$k" --json; done
ct lukho_play_ones_south-first_trace lukho play "${P[@]}" --race south-first --trace
cjl lukho_play_ones_speeds105_trace_jsonl lukho play "${P[@]}" --race speeds:105 --trace --jsonl
H=(--south-remove 0,0,0,0,0,0,0,1 --south-drop 0@0 --north-remove 0,0,0,0,0,0,0,0 --north-drop 0@0)
cjl lukho_play_hand_south-first_trace_jsonl lukho play "${H[@]}" --race south-first --trace --jsonl
ct lukho_play_hand_south-first_text lukho play "${H[@]}" --race south-first
cj lukho_play_hand_lockstep-north_en_keep-one lukho play "${H[@]}" --race lockstep-north --chain en --keep-one --json
cj lukho_play_hand_south-first_none lukho play "${H[@]}" --race south-first --chain none --json
I=(--south-remove 2,1,1,3,3,0,2,3 --south-drop 3@1 --north-remove 0,3,2,2,1,2,1,0 --north-drop 7@2)
cj lukho_play_ids_north-first_en lukho play "${I[@]}" --race north-first --chain en --json
cjl lukho_play_ids_north-first_none_trace_jsonl lukho play "${I[@]}" --race north-first --chain none --trace --jsonl

# -- sweeps ----------------------------------------------------------------------------------------
# sweep NAME EXTRA_NORM ARGS... : the run's report (--json) and the three summaries.
sweep() {
  local n=$1 norm=$2
  shift 2
  header "$n" "$@"
  cap m "$@" --out "sw-$n" --json
  {
    echo "## report"
    normj json "$norm" <"$T/o"
    rc_tail
    for f in summary.csv summary.jsonl; do
      echo "## $f"
      dump "sw-$n/$f"
    done
    echo "## summary.json"
    dumpj "sw-$n/summary.json"
    if [ -e "sw-$n/games.jsonl" ]; then
      echo "## games.jsonl"
      cat "sw-$n/games.jsonl"
    fi
  } >>"$OUT/$n.txt"
}
for c in it en none; do
  for r in sequential lockstep; do
    sweep "lukho_sweep_${c}_${r}" perp lukho sweep --south 3456789,1234567,0 --north 0..100000 --race "$r" --chain "$c"
  done
  sweep "lukho_sweep_${c}_speeds" perp lukho sweep --south 3456789,0 --north 0..3000 --race speeds --chain "$c"
done
# One thread: the shared perpetual-cycle statistics are deterministic too.
sweep lukho_sweep_it_speeds_threads1 none lukho sweep --south 3456789,0 --north 0..3000 --race speeds --threads 1
sweep lukho_sweep_it_sequential_keep-one perp lukho sweep --south 3456789,1234567,0 --north 0..100000 --race sequential --keep-one
sweep lukho_sweep_symmetric_speeds perp lukho sweep --south 0..2000 --symmetric --race speeds
sweep lukho_sweep_filters_lockstep perp lukho sweep --south 'all:remove=333333*3:drop=0..2' --north 'all:pit=3:drop=2..4' --race lockstep
sweep lukho_sweep_south-first_filters perp lukho sweep --south '0..65536:pit=3' --north 'all:remove=0000000*' --race south-first
sweep lukho_sweep_games_jsonl perp lukho sweep --south 0,77,4000 --north 0..40 --race sequential --games jsonl
header lukho_sweep_text lukho sweep --south 0..3 --north 0..3 --race sequential --out sw-text
cap m lukho sweep --south 0..3 --north 0..3 --race sequential --out sw-text
{ normt <"$T/o"; echo "# stderr:"; normt <"$T/e"; echo "# exit $RC"; dump sw-text/summary.csv; } >>"$OUT/lukho_sweep_text.txt"

# -- shards and merge: 3 shards of the it/sequential sweep above -----------------------------------
SW=(lukho sweep --south 3456789,1234567,0 --north 0..100000 --race sequential)
header lukho_shards "${SW[@]}" --shard K/3 --out parts --json
for k in 0 1 2; do
  cap m "${SW[@]}" --shard "$k/3" --out parts --json
  { echo "## shard $k/3 report"; normj json perp <"$T/o"; rc_tail; } >>"$OUT/lukho_shards.txt"
done
{ echo "## part files (sha256)"; shas parts; } >>"$OUT/lukho_shards.txt"
# A finished shard is not redone.
cap m "${SW[@]}" --shard 1/3 --out parts --json
{ echo "## rerun of shard 1/3"; normj json perp <"$T/o"; rc_tail; echo "# stderr:"; normt <"$T/e"; } >>"$OUT/lukho_shards.txt"
cap env SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_COUNT=3 "$BIN" "${SW[@]}" --out parts --json
{ echo "## rerun of shard 2/3 named by Slurm variables"; normj json perp <"$T/o"; rc_tail; echo "# stderr:"; normt <"$T/e"; } >>"$OUT/lukho_shards.txt"
header lukho_merge lukho merge --out merged parts/part-00002-of-00003.lukho parts/part-00000-of-00003.lukho parts/part-00001-of-00003.lukho --json
cap m lukho merge --out merged parts/part-00002-of-00003.lukho parts/part-00000-of-00003.lukho parts/part-00001-of-00003.lukho --json
{
  echo "## report"; normj json <"$T/o"; rc_tail
  for f in summary.csv summary.jsonl summary.json; do
    if cmp -s "merged/$f" "sw-lukho_sweep_it_sequential/$f"; then
      echo "# merged/$f is byte-identical to the unsharded run's"
    else
      echo "# merged/$f DIFFERS from the unsharded run's:"
      dump "merged/$f"
    fi
  done
} >>"$OUT/lukho_merge.txt"
ct lukho_merge_text lukho merge --out merged-text parts/part-00000-of-00003.lukho parts/part-00001-of-00003.lukho parts/part-00002-of-00003.lukho

# -- sample -------------------------------------------------------------------------------------------
# sample NAME ARGS... : stdout (--json), sample.json, margins.csv, margins.svg (sha256).
sample() {
  local n=$1
  shift
  header "$n" "$@"
  cap m "$@" --out "smp-$n" --json
  {
    echo "## report"; normj json <"$T/o"; rc_tail
    echo "## sample.json"; dumpj "smp-$n/sample.json"
    echo "## margins.csv"; dump "smp-$n/margins.csv"
    echo "## margins.svg (sha256)"; sha "smp-$n/margins.svg"
  } >>"$OUT/$n.txt"
}
sample lukho_sample_sequential_seed1 lukho sample --pairs 20000 --seed 1 --race sequential
sample lukho_sample_sequential_seed2 lukho sample --pairs 20000 --seed 2 --race sequential
sample lukho_sample_lockstep_en lukho sample --pairs 20000 --seed 1 --race lockstep --chain en
sample lukho_sample_speeds lukho sample --pairs 1000 --seed 3 --race speeds
sample lukho_sample_south-first_keep-one lukho sample --pairs 5000 --seed 4 --race south-first --keep-one

# -- equilibrium ---------------------------------------------------------------------------------------
# equilibrium NAME DIR ARGS... : the answer, equilibrium.json, the state's body and the columns.
equilibrium() {
  local n=$1 d=$2
  shift 2
  header "$n" "$@" --out "$d" --json
  cap m "$@" --out "$d" --json
  {
    echo "## answer"; normj json <"$T/o"; rc_tail
    echo "## stderr (iteration lines, times masked)"; grep -E '^iteration' "$T/e" | normt || true
    echo "## $d/equilibrium.json"; dumpj "$d/equilibrium.json"
    echo "## $d/state.lukho-eq header (crc32 and bytes cover the times: dropped)"
    if [ -e "$d/state.lukho-eq" ]; then
      head -n 1 "$d/state.lukho-eq" | sed -E 's/"(bytes|crc32)":[0-9]+,?//g' | normj json
      echo "## $d/state.lukho-eq body"; tail -n +2 "$d/state.lukho-eq" | normj json
    else
      echo "# $d/state.lukho-eq missing"
    fi
    echo "## $d/columns (sha256)"; shas "$d/columns"
  } >>"$OUT/$n.txt"
}
equilibrium lukho_equilibrium_sequential_margin eq-seq \
  lukho equilibrium --race sequential --payoff margin --family 'all:remove=000000**'
equilibrium lukho_equilibrium_south-first_margin_exploit eq-sf \
  lukho equilibrium --race south-first --payoff margin --family 'all:remove=000000**' --exploit 0,15
equilibrium lukho_equilibrium_lockstep_result eq-ls \
  lukho equilibrium --race lockstep --payoff result --family 0..60
equilibrium lukho_equilibrium_north-first_points_max2 eq-nf \
  lukho equilibrium --race north-first --payoff points --family 'all:remove=0000000*' --max-iterations 2
equilibrium lukho_equilibrium_north-first_points_resumed eq-nf \
  lukho equilibrium --race north-first --payoff points --family 'all:remove=0000000*'
equilibrium lukho_equilibrium_north-first_points_rerun eq-nf \
  lukho equilibrium --race north-first --payoff points --family 'all:remove=0000000*'
equilibrium lukho_equilibrium_south-first_margin_cuts eq-cuts \
  lukho equilibrium --race south-first --payoff margin --family 'all:remove=0000000*' --cuts 2
ct lukho_equilibrium_text lukho equilibrium --race lockstep-south --payoff result --family 0..40 --out eq-text

# -- replies -----------------------------------------------------------------------------------------------
replies() {
  local n=$1 d=$2
  shift 2
  header "$n" "$@" --out "$d" --json
  cap m "$@" --out "$d" --json
  {
    echo "## answer"; normj json <"$T/o"; rc_tail
    echo "## $d/replies.json"; dumpj "$d/replies.json"
    echo "## $d/replies-top.csv"; dump "$d/replies-top.csv"
    echo "## $d/replies-south.csv"; dump "$d/replies-south.csv"
    echo "## $d/columns (sha256)"; shas "$d/columns"
  } >>"$OUT/$n.txt"
}
replies lukho_replies_small rp lukho replies --south 0,5,40,77 --race sequential --family 'all:remove=000000**'
# A larger set in the same DIR: only the new South choices are swept.
replies lukho_replies_small_superset rp lukho replies --south 0,5,40,77,100,399 --race sequential --family 'all:remove=000000**' --top 5
replies lukho_replies_drop0_result rp2 lukho replies --south 'all:drop=0:remove=000000**' --race north-first --payoff result --family 'all:drop=0'

# ======================================================================================
# The error contract: exit status and stderr of bad input
# ======================================================================================
ce err_oware_solve_pits_count oware solve --pits 4,4,4
ce err_oware_solve_pits_value oware solve --pits 4,4,4,4,4,4,4,4,4,4,4,x
ce err_oware_solve_pits_negative oware solve --pits 4,4,4,4,4,4,4,4,4,4,4,-1
ce err_oware_solve_pits_too_many oware solve --pits 9,9,9,9,9,9,0,0,0,0,0,0
ce err_oware_unknown_grand_slam oware replay --moves 1 --grand-slam sometimes
ce err_oware_replay_illegal oware replay --moves 0,0,0 --jsonl
ce err_oware_replay_bad_start oware replay --start 4,4,4 --moves 0
ce err_oware_solve_no_db oware solve --pits 0,0,0,1,2,1,0,0,1,0,0,1 --db nonexistent-db --json
ce err_oware_solve_time0 oware solve --pits 0,0,0,1,2,1,0,0,1,0,0,1 --time 0
ce err_oware_export_bad_range oware db export --dir ow14 --stones 3..=1 --format csv --out never.csv
exists never.csv >>"$OUT/err_oware_export_bad_range.txt"
ce err_oware_export_beyond oware db export --dir ow14 --stones 0..=15 --format csv --out never2.csv
exists never2.csv >>"$OUT/err_oware_export_beyond.txt"
ce err_oware_export_parquet oware db export --dir ow14 --stones 0..=2 --format parquet --out never.parquet
exists never.parquet >>"$OUT/err_oware_export_parquet.txt"
ce err_oware_db_other_rules oware db stats --dir ow14 --grand-slam awari
ce err_oware_db_own-rows oware db build --max-stones 2 --dir ow-own --cycle own-rows
ce err_oware_db_too_big oware db build --max-stones 48 --dir ow-big
ce err_oware_db_bad_max oware db build --max-stones 49 --dir ow-big2
# A corrupt and then truncated layer of a small database.
m oware db build --max-stones 4 --dir ow-bad >/dev/null 2>&1 || true
f=ow-bad/oware-gs-no-capture-4.db
if [ -e "$f" ]; then
  off=$(($(stat -c %s "$f") - 10))
  orig=$(od -An -tu1 -j "$off" -N1 "$f" | tr -d ' ')
  printf "\\x$(printf %02x $((orig ^ 1)))" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
fi
ce err_oware_db_corrupt_verify oware db verify --dir ow-bad
[ -e "$f" ] && truncate -s -5 "$f"
ce err_oware_db_truncated_stats oware db stats --dir ow-bad

ce err_kiothi_replay_bad_move kiothi replay --moves "4,5>0*2"
ce err_kiothi_replay_illegal_sow kiothi replay --moves "$KOPEN 2:1"
ce err_kiothi_perft_no_position kiothi perft --depth 1 --position nonexistent.json
ce err_kiothi_unknown_setup kiothi openings --count --setup 7x7
ce err_kiothi_openings_no_mode kiothi openings
ce err_kiothi_solve_turn1 kiothi solve --position "$IN/kiothi_tiny_opening.json"
ce err_kiothi_solve_not_json kiothi solve --position "$IN/kiothi_bad_json.json"
ce err_kiothi_solve_time0 kiothi solve --position "$IN/kiothi_endgame10.json" --time 0
ce err_kiothi_solve_db_without_tables kiothi solve --position "$IN/kiothi_small4.json" --db ow14
ce_stdin err_kiothi_solve_stdin_garbage "$IN/kiothi_bad_json.json" kiothi solve --position - --json
ce err_kiothi_db_nki_pass kiothi db build --max-warriors 3 --dir kt-pass --nki-clear pass
ce err_kiothi_db_max_relays kiothi db build --max-warriors 3 --dir kt-relays --max-relays 5
ce err_kiothi_db_too_many kiothi db build --max-warriors 11 --dir kt-11
ce err_kiothi_export_bad_range kiothi db export --dir kt6 --warriors 5..=2 --format csv --out never3.csv
exists never3.csv >>"$OUT/err_kiothi_export_bad_range.txt"

HB=(lukho play --south-remove 0,0,0,0,0,0,0,1 --south-drop 0@0 --north-remove 0,0,0,0,0,0,0,0 --north-drop 0@0)
ce err_lukho_play_bad_remove lukho play --south-remove 0,0,0,0,0,0,0,4 --south-drop 0@0 --north-remove 0,0,0,0,0,0,0,0 --north-drop 0@0 --race south-first
ce err_lukho_play_short_remove lukho play --south-remove 0,0,0,0,0,0,0,1 --south-drop 0@0 --north-remove 1,1,1 --north-drop 0@0 --race south-first
ce err_lukho_play_bad_drop lukho play --south-remove 0,0,0,0,0,0,0,1 --south-drop 0@0 --north-remove 0,0,0,0,0,0,0,0 --north-drop 0@8 --race south-first
ce err_lukho_play_unknown_race "${HB[@]}" --race sideways
ce err_lukho_play_bad_speeds "${HB[@]}" --race speeds:x
ce err_lukho_play_speeds_past_last lukho play --south-remove 1,1,1,1,1,1,1,1 --south-drop 0@0 --north-remove 0,0,0,0,0,0,1,2 --north-drop 1@4 --race speeds:210
ce err_lukho_play_unknown_chain "${HB[@]}" --race south-first --chain fr
ce err_lukho_opening_id_range lukho opening --id 6356992
ce err_lukho_opening_bad_drop lukho opening --remove 3,3,3,3,3,3,3,3 --drop 25@0
SB=(lukho sweep --south 0..3 --north 0..3 --race sequential --out never-sweep)
ce err_lukho_sweep_unknown_race lukho sweep --south 0..3 --north 0..3 --race random --out never-sweep
ce err_lukho_sweep_bad_range lukho sweep --south 0..x --north 0..3 --race sequential --out never-sweep
ce err_lukho_sweep_range_past_end lukho sweep --south 0..6356993 --north 0..3 --race sequential --out never-sweep
ce err_lukho_sweep_bad_pit lukho sweep --south 0..3 --north all:pit=9 --race sequential --out never-sweep
ce err_lukho_sweep_bad_remove_filter lukho sweep --south 0..3 --north 'all:remove=5*******' --race sequential --out never-sweep
ce err_lukho_sweep_shard_range "${SB[@]}" --shard 3/3
ce err_lukho_sweep_shard_syntax "${SB[@]}" --shard 1
ce err_lukho_sweep_games_too_big lukho sweep --south 0..3 --north all --race sequential --out never-sweep --games csv
ce err_lukho_sweep_calibrate "${SB[@]}" --dry-run --calibrate 0
exists never-sweep >>"$OUT/err_lukho_sweep_calibrate.txt"
ce err_lukho_merge_missing_part lukho merge --out never-merge parts/part-00000-of-00003.lukho parts/part-00001-of-00003.lukho
exists never-merge >>"$OUT/err_lukho_merge_missing_part.txt"
ce err_lukho_merge_duplicate_part lukho merge --out never-merge parts/part-00000-of-00003.lukho parts/part-00000-of-00003.lukho parts/part-00001-of-00003.lukho parts/part-00002-of-00003.lukho
ce err_lukho_sample_existing_out lukho sample --pairs 10 --race sequential --out smp-lukho_sample_speeds
ce err_lukho_equilibrium_unknown_payoff lukho equilibrium --race sequential --payoff score --out never-eq
ce err_lukho_equilibrium_speeds lukho equilibrium --race speeds --payoff margin --out never-eq
ce err_lukho_equilibrium_empty_family lukho equilibrium --race sequential --payoff margin --family 0..10:drop=5 --out never-eq
ce err_lukho_equilibrium_foreign_state lukho equilibrium --race north-first --payoff margin --family 'all:remove=0000000*' --out eq-nf
ce err_lukho_replies_top0 lukho replies --south 0 --race sequential --top 0 --out never-rp
ce err_lukho_replies_not_member lukho replies --south 9 --race sequential --family 0..5 --out never-rp
exists never-eq >>"$OUT/err_lukho_replies_not_member.txt"
exists never-rp >>"$OUT/err_lukho_replies_not_member.txt"

ce err_unknown_game chess solve
ce err_no_subcommand oware

cp -r "$IN" "$OUT/inputs"
say "done: $(ls "$OUT" | wc -l) entries in $OUT"
