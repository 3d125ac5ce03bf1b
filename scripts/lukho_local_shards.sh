#!/usr/bin/env bash
# Run a Lukho opening sweep as N shards on this machine, then merge them.
#
#   scripts/lukho_local_shards.sh N OUT SWEEP-ARGS...
#   e.g. scripts/lukho_local_shards.sh 4 /tmp/sw --south 0..64 --north all:drop=0 --race sequential
#
# Shard K writes OUT/parts/part-K-of-N.lukho (atomically); a rerun skips finished shards, so an
# interrupted run is resumed by running the same command again. The merged summaries
# (summary.csv, summary.jsonl, summary.json) land in OUT and equal an unsharded run's.
# Env: MANCALA (the binary, default `mancala` on PATH), JOBS (shards at once, default 1: each
# shard already uses every core), THREADS (threads per shard, default all).
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 N OUT SWEEP-ARGS... (see mancala lukho sweep --help)" >&2
    exit 2
fi
n=$1; out=$2; shift 2
case "$n" in ''|*[!0-9]*|0) echo "$0: N: \`$n\` is not a positive shard count" >&2; exit 2;; esac
mancala=${MANCALA:-mancala}
jobs=${JOBS:-1}
threads=()
if [ -n "${THREADS:-}" ]; then threads=(--threads "$THREADS"); fi
# The scheduler variables must not override the explicit --shard below.
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN JOB_COMPLETION_INDEX JOB_COMPLETIONS
seq 0 $((n - 1)) | xargs -P "$jobs" -I{} "$mancala" lukho sweep "$@" "${threads[@]}" --shard "{}/$n" --out "$out/parts"
parts=()
for k in $(seq 0 $((n - 1))); do
    parts+=("$out/parts/$(printf 'part-%05d-of-%05d.lukho' "$k" "$n")")
done
"$mancala" lukho merge --out "$out" "${parts[@]}"
