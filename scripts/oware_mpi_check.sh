#!/usr/bin/env bash
# The distributed Oware build (`db build --distributed`, feature `mpi`) against the
# single-process build: layers 0..=N built by `mpirun -np K` for K = 1, 2, 4 and both indexes
# must verify (checksums, Bellman) with exactly the single-process build's checksums; then one
# process is killed (`kill -9`) while layer N is built: mpirun must exit nonzero with one line
# (rank 0's), no file of layer N may exist, and a rerun of the same command must finish with
# the same checksums.
#
#   scripts/oware_mpi_check.sh N        (CI: N = 13, about 2 minutes on 2 cores)
#
# Needs mpirun and the MPI headers (Debian: openmpi-bin libopenmpi-dev libclang-dev). Each
# process runs THREADS worker threads (default 1), so K = 4 oversubscribes a 2-core machine.
# Prints each build's time for layer N (the benchmark figure of results/BENCHMARKS.md, whose
# checksum this script asserts). Work directories: a temporary directory, removed at the end.
set -euo pipefail
max=${1:?N: largest layer}
threads=${THREADS:-1}
cd "$(dirname "$0")/.."
. scripts/mpi_setup.sh
# The checksum lines of `db verify` (it also checks every entry against its moves).
checksums() { "$bin" oware db verify --dir "$1" | grep '^layer'; }
# Layer N's line of a build log: its time and checksum.
top() { grep -E "^layer +$max:" "$1" | tail -1; }

for index in full reachable; do
    single=$work/single-$index
    nice -n 19 "$bin" oware db build --max-stones "$max" --dir "$single" --index "$index" \
        --threads "$threads" 2>"$work/single-$index.log"
    checksums "$single" >"$work/want-$index"
    echo "$index, 1 process, no MPI: $(top "$work/single-$index.log")"
    for k in 1 2 4; do
        dir=$work/mpi-$index-$k
        nice -n 19 mpirun --oversubscribe -np "$k" "$bin" oware db build --distributed \
            --max-stones "$max" --dir "$dir" --index "$index" --threads "$threads" 2>"$dir.log" \
            || { cat "$dir.log" >&2; fail "$index: mpirun -np $k exited nonzero"; }
        checksums "$dir" >"$work/got"
        diff "$work/want-$index" "$work/got" >&2 || fail "$index: mpirun -np $k: checksums differ from the single-process build"
        echo "$index, $k MPI processes: $(top "$dir.log")"
    done
done

# Kill one process while layer N is built.
dir=$work/killed
cmd=(mpirun -q --oversubscribe -np 2 "$bin" oware db build --distributed --max-stones "$max" --dir "$dir" --threads "$threads")
nice -n 19 "${cmd[@]}" 2>"$work/killed.log" &
job=$!
below=$(printf '%s/oware-gs-no-capture-%d.db' "$dir" $((max - 1)))
for _ in $(seq 1 6000); do
    [ -e "$below" ] && break
    kill -0 "$job" 2>/dev/null || fail "the build ended before layer $max started"
    sleep 0.01
done
[ -e "$below" ] || fail "layer $((max - 1)) did not appear within 60 s"
sleep 0.2
victim=$(pgrep -P "$job" -f "oware db build" | tail -1)
[ -n "$victim" ] || fail "no MPI process found to kill"
[ -e "$dir/oware-gs-no-capture-$max.db" ] && fail "layer $max was finished before the kill: raise N"
kill -9 "$victim"
if wait "$job"; then fail "mpirun exited 0 after a process was killed"; fi
# `mpirun -q` prints nothing of its own: the job's one line is rank 0's (stopped by SIGTERM).
# OpenMPI's shared-memory transport may still print a diagnostic of its own from the survivor
# (`[host:pid] Read -1, expected N, errno = 3`: its single-copy read from the dead process),
# depending on when the kill lands (it failed CI once): those lines are the MPI library's, in
# its `[host:pid]` form, and are left out; every other line must be the job's one line.
grep -v '^layer\|^building\|^\[[^]]*:[0-9]*\] ' "$work/killed.log" >"$work/killed.err" || true
[ "$(wc -l <"$work/killed.err")" = 1 ] && grep -q '^error: the MPI job was stopped' "$work/killed.err" \
    || { cat "$work/killed.log" >&2; fail "not the one line after the kill"; }
echo "killed process $victim while layer $max was built: mpirun exited nonzero, one line: $(cat "$work/killed.err")"
leftover=$(find "$dir" -name "*-$max.db*")
[ -z "$leftover" ] || fail "a file of the unfinished layer was left: $leftover"
nice -n 19 "${cmd[@]}" 2>"$work/rerun.log" || { cat "$work/rerun.log" >&2; fail "the rerun failed"; }
checksums "$dir" >"$work/got"
diff "$work/want-full" "$work/got" >&2 || fail "the rerun's checksums differ from the single-process build"
echo "rerun: $(top "$work/rerun.log")"
echo "ok: layers 0..=$max identical at 1, 2 and 4 processes (full and reachable), kill and rerun clean"
