#!/usr/bin/env bash
# A Lukho opening sweep as a Slurm job array: task K of N sweeps the K-th South range and
# writes OUT/parts/part-K-of-N.lukho; a final merge checks coverage and writes the summaries.
#
#   jid=$(sbatch --parsable --array=0-999 scripts/lukho_slurm.sh OUT --south all --north all --race sequential)
#   sbatch --dependency=afterok:$jid scripts/lukho_slurm.sh --merge OUT
#
# `mancala lukho sweep` reads SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT (and
# SLURM_ARRAY_TASK_MIN) itself. Finished shards are skipped, so resubmitting the same array
# resumes. To resubmit only some indices, give the whole array's size in SHARDS (Slurm's
# SLURM_ARRAY_TASK_COUNT is then the count of the indices resubmitted, not the array's):
#   SHARDS=1000 sbatch --array=17,42 scripts/lukho_slurm.sh OUT SWEEP-ARGS...
# Size the array first:
#   mancala lukho sweep --south all --north all --race sequential --dry-run
# prints the games and projected core-hours. Env: MANCALA (binary, default `mancala`), SHARDS.
# The #SBATCH lines below are for a cluster node; override them on the command line
# (`sbatch -c 1 --mem=1G …`), as scripts/slurm_check.sh does on its one-node test cluster.
#SBATCH --job-name=lukho-sweep
#SBATCH --cpus-per-task=32
#SBATCH --mem=8G
#SBATCH --time=24:00:00
#SBATCH --output=lukho-%A_%a.out
set -euo pipefail
mancala=${MANCALA:-mancala}
if [ "${1:-}" = "--merge" ]; then
    out=${2:?usage: $0 --merge OUT}
    exec "$mancala" lukho merge --out "$out" "$out"/parts/part-*.lukho
fi
out=${1:?usage: sbatch --array=0-(N-1) $0 OUT SWEEP-ARGS...}
shift
if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
    echo "$0: not inside a Slurm job array (SLURM_ARRAY_TASK_ID unset); submit with sbatch --array=0-(N-1)" >&2
    exit 2
fi
shard=()
if [ -n "${SHARDS:-}" ]; then shard=(--shard "$SLURM_ARRAY_TASK_ID/$SHARDS"); fi
exec "$mancala" lukho sweep "$@" "${shard[@]}" --threads "${SLURM_CPUS_PER_TASK:-1}" --out "$out/parts"
