#!/usr/bin/env bash
# The Slurm job files run under a real Slurm (a one-node cluster on this machine,
# scripts/slurm/local_cluster.sh) at small scale, against the single-process commands:
#
#   (a) scripts/slurm/oware_db_build.sbatch, 2 MPI tasks on the one node (srun --mpi=pmix),
#       Oware layers 0..=MAX: `db verify` must pass with exactly the checksums of a
#       single-process `oware db build` of the same size;
#   (b) scripts/lukho_slurm.sh as a job array of 4 shards, then its --merge job
#       (--dependency=afterok): the merged summaries must be byte-identical to a single-process
#       `lukho sweep` of the same family;
#   (c) one shard deleted, the same array resubmitted: only that shard is redone (the others'
#       files untouched), and the merge is again identical; then the deleted shard redone alone
#       (`SHARDS=4 sbatch --array=2`).
#
#   scripts/slurm_check.sh [MAX]        (default MAX = 11)
#
# Runs as root (starts the cluster: installs Slurm and MUNGE from Debian if missing; the jobs
# run as root). Builds the crate with --features mpi (needs openmpi-bin libopenmpi-dev
# libclang-dev). Leaves the cluster running (`scripts/slurm/local_cluster.sh stop` stops it).
# Work directory: a temporary directory under the repository's target/ (every node must see
# it; here there is one), removed at the end.
set -euo pipefail
max=${1:-11}
cd "$(dirname "$0")/.."
scripts/slurm/local_cluster.sh >/dev/null
cargo build --release --locked --quiet --features mpi
bin=$PWD/target/release/mancala
work=$(mktemp -d "$PWD/target/slurm-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The sweeps below must not see a scheduler's variables if this runs inside a Slurm job.
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN SLURM_JOB_ID

fail() { echo "FAIL: $*" >&2; exit 1; }
# Job logs to stderr before a failure (some may not exist: a job cancelled before it ran).
show() { cat "$@" >&2 2>/dev/null || true; }
now() { date +%s%N; }
since() { local ms=$((($(now) - $1) / 1000000)); printf '%d.%d s' $((ms / 1000)) $((ms % 1000 / 100)); }
# A job's (or every array task's) state, exit code and run time from the controller (jobs stay
# listed MinJobAge = 300 s; RunTime in whole seconds).
job_line() {
    scontrol -o show job "$1" | grep -oE '(ArrayTaskId|JobState|ExitCode|RunTime)=[^ ]+' \
        | sed 's/ArrayTaskId=/task /; s/JobState=//; s/ExitCode=/exit /; s/RunTime=/run /' \
        | paste -sd' ' | sed 's/ task /; task /g'
}
states() { scontrol -o show job "$1" 2>/dev/null | grep -oE 'JobState=[A-Z_]+' | sort -u; }
# Wait until every task of a job has ended, polling twice a second, 5 minutes at most (no job
# may hang the check: a node down, a dependency never satisfied). Not `sbatch --wait`: it polls
# at growing intervals (it returned 28 s after a 14 s job ended), and it returns 0 for a job
# cancelled before it ran (the merge, when a task of its array failed).
wait_job() {
    local st
    for _ in $(seq 1 600); do
        st=$(states "$1")
        if [ -n "$st" ] && ! grep -qvxE 'JobState=(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)' <<<"$st"; then
            return 0
        fi
        sleep 0.5
    done
    fail "job $1 has not ended after 300 s: $(job_line "$1")"
}
completed() { [ "$(states "$1")" = JobState=COMPLETED ]; }

# (a) The distributed Oware build: 1 node, 2 MPI tasks of 1 thread (the file's defaults are a
# cluster's: 4 nodes of 32 cores).
t=$(now)
"$bin" oware db build --max-stones "$max" --dir "$work/oware-single" --threads 1 2>"$work/single-build.log"
"$bin" oware db verify --dir "$work/oware-single" | grep '^layer' >"$work/oware-want"
echo "(a) single-process build of layers 0..=$max: $(since "$t")"
t=$(now)
jid=$(sbatch --parsable --nodes=1 --ntasks-per-node=2 --cpus-per-task=1 --time=10:00 \
    --output="$work/oware-%j.log" scripts/slurm/oware_db_build.sbatch "$max" "$work/oware-slurm")
wait_job "$jid"
log=$work/oware-$jid.log
completed "$jid" || { show "$log"; fail "(a) job $jid: $(job_line "$jid")"; }
echo "(a) sbatch oware_db_build.sbatch $max (job $jid, $(job_line "$jid")): $(since "$t")"
grep -q "2 MPI processes" "$log" || { show "$log"; fail "(a) the build log does not say 2 MPI processes"; }
# The job ran `db verify` (its checksum lines in the log); verify again here and compare.
"$bin" oware db verify --dir "$work/oware-slurm" | grep '^layer' >"$work/oware-got"
diff "$work/oware-want" "$work/oware-got" >&2 || { show "$log"; fail "(a) db verify after the Slurm build: checksums differ from the single-process build"; }
[ "$(grep -cFx -f "$work/oware-want" "$log")" = "$(wc -l <"$work/oware-want")" ] \
    || { show "$log"; fail "(a) the job's own db verify lines are not the single-process checksums"; }
echo "(a) $(wc -l <"$work/oware-got") layers verified, checksums identical to the single-process build"

# (b) The Lukho sweep as a job array of 4 shards, then the merge.
family=(--south 0..64 --north all:remove=333*****:drop=1 --race sequential)
sweep=$work/sweep
submit_array() { # EXTRA-SBATCH-ARGS...: prints the array's job id
    sbatch --parsable -c 1 --mem=1G --time=10:00 --output="$work/lukho-%A_%a.out" "$@" \
        scripts/lukho_slurm.sh "$sweep" "${family[@]}"
}
merge() { # ARRAY-JOB-ID
    local m
    rm -rf "$sweep/summary".*
    m=$(sbatch --parsable -c 1 --mem=1G --time=10:00 --dependency="afterok:$1" --kill-on-invalid-dep=yes \
        --output="$work/merge-%j.out" scripts/lukho_slurm.sh --merge "$sweep")
    wait_job "$m"
    wait_job "$1"
    echo "    array $1: $(job_line "$1")"
    echo "    merge $m: $(job_line "$m")"
    completed "$1" && completed "$m" \
        || { show "$work"/lukho-*.out "$work"/merge-*.out; fail "the array $1 or its merge $m did not complete"; }
}
same_summaries() { # WHAT
    for f in summary.csv summary.jsonl summary.json; do
        cmp "$work/whole/$f" "$sweep/$f" >&2 || fail "$1: $f differs from the single-process sweep"
    done
}
parts() { stat -c '%n %i %Y' "$sweep"/parts/part-*.lukho; }
export MANCALA=$bin
t=$(now)
"$bin" lukho sweep "${family[@]}" --threads 1 --out "$work/whole" >/dev/null
echo "(b) single-process sweep ${family[*]}: $(since "$t")"
t=$(now)
jid=$(submit_array --array=0-3)
merge "$jid"
echo "(b) array of 4 (job $jid) + merge (afterok): $(since "$t")"
[ "$(ls "$sweep"/parts | wc -l)" = 4 ] || fail "(b) expected 4 part files: $(ls "$sweep"/parts)"
same_summaries "(b) 4 shards under Slurm"
echo "(b) summary.csv, summary.jsonl, summary.json identical to the single-process sweep"

# (c) Delete one shard and resubmit the same array: only that shard is swept again.
parts >"$work/parts-before"
rm "$sweep/parts/part-00002-of-00004.lukho"
sleep 1 # a rewritten part would then have a later mtime, as well as a new inode
t=$(now)
jid=$(submit_array --array=0-3)
merge "$jid"
echo "(c) the array resubmitted with shard 2 deleted (job $jid) + merge: $(since "$t")"
parts >"$work/parts-after"
changed=$(diff "$work/parts-before" "$work/parts-after" | grep '^>' || true)
[ "$(echo "$changed" | wc -l)" = 1 ] && echo "$changed" | grep -q 'part-00002-of-00004' \
    || fail "(c) expected only part 2 rewritten, got: ${changed:-nothing}"
same_summaries "(c) after the resubmission"
echo "(c) only part-00002-of-00004 rewritten; summaries identical again"
# The same with only the deleted index resubmitted (SHARDS gives the array's size).
rm "$sweep/parts/part-00002-of-00004.lukho"
parts >"$work/parts-before"
jid=$(SHARDS=4 submit_array --array=2)
merge "$jid"
parts >"$work/parts-after"
changed=$(diff "$work/parts-before" "$work/parts-after" | grep '^>' || true)
echo "$changed" | grep -q 'part-00002-of-00004' && [ "$(echo "$changed" | wc -l)" = 1 ] \
    || fail "(c) SHARDS=4 --array=2: expected part 2 alone written, got: ${changed:-nothing}"
same_summaries "(c) after SHARDS=4 --array=2"
echo "(c) SHARDS=4 sbatch --array=2 redid part 2 alone; summaries identical again"
echo "slurm check passed"
