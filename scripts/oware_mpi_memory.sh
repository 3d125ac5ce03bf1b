#!/usr/bin/env bash
# Peak memory per process of the distributed Oware build (`db build --distributed`, feature
# `mpi`): layers 0..=N (full index) built by `mpirun -np K` for K = 1, 2, 4, every process run
# under GNU time, and the single-process build beside them. Prints, per K, each process's peak
# RSS (the top layer's build is the peak: every layer is larger than the ones below), layer N's
# log line (time, cross-process updates and lookups) and requires the single-process checksum
# of layer N.
#
#   scripts/oware_mpi_memory.sh N       (docs/distributed.md: N = 18, about 10 minutes on 2 cores)
#
# Needs mpirun, the MPI headers and /usr/bin/time. Each process runs THREADS worker threads
# (default 1). Work directories: a temporary directory, removed at the end.
set -euo pipefail
max=${1:?N: largest layer}
threads=${THREADS:-1}
cd "$(dirname "$0")/.."
. scripts/mpi_setup.sh
top() { grep -E "^layer +$max:" "$1" | tail -1; }
mib() { echo "$(( $1 / 1024 ))"; }

/usr/bin/time -f '%M' -o "$work/single.rss" "$bin" oware db build --max-stones "$max" --dir "$work/single" \
    --threads "$threads" 2>"$work/single.log"
want=$(top "$work/single.log" | grep -o 'crc32 [0-9a-f]*')
echo "1 process, no MPI: peak RSS $(mib "$(cat "$work/single.rss")") MiB; $(top "$work/single.log")"
# Each MPI process writes its own peak (KiB) to rss.K.RANK.
cat >"$work/timed" <<'WRAP'
#!/bin/sh
exec /usr/bin/time -f '%M' -o "$RSS.$OMPI_COMM_WORLD_RANK" "$@"
WRAP
chmod +x "$work/timed"
for k in 1 2 4; do
    dir=$work/mpi-$k
    RSS=$work/rss.$k mpirun -x RSS --oversubscribe -np "$k" "$work/timed" "$bin" oware db build --distributed \
        --max-stones "$max" --dir "$dir" --threads "$threads" 2>"$dir.log" \
        || { cat "$dir.log" >&2; fail "mpirun -np $k exited nonzero"; }
    top "$dir.log" | grep -q "$want" || fail "mpirun -np $k: layer $max is not the single-process build's ($want)"
    peaks=$(for r in $(seq 0 $((k - 1))); do mib "$(cat "$work/rss.$k.$r")"; done | paste -sd/)
    echo "$k MPI processes: peak RSS per process $peaks MiB; $(top "$dir.log")"
done
