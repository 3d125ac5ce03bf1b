#!/usr/bin/env bash
# The long reachable-index Oware build behind results/oware/scale_run.csv: layers 0..=MAX under
# a memory budget (out of core where the layer does not fit), one CSV row per layer with its
# positions, crc32, seconds and peak RSS (VmHWM, reset after each layer).
#
#   scripts/oware_scale_run.sh DIR [MAX=28] [MEMORY=5G] [BIN=target/release/mancala]
#
# Resumable: rerun the same command; `db build` keeps every finished layer (checked), a stopped
# out-of-core layer resumes from its last checkpoint (after a partition's forward pass, a
# threshold, or at most 20 minutes of visits; it prints `layer N: resuming at ...`), and the
# CSV (DIR/layers.csv) gains the rows of the layers built by this run (a resumed layer's seconds
# are those of the run that finished it). Run as root for the
# per-layer peak (it resets /proc/PID/clear_refs); elsewhere the column is the running peak.
set -uo pipefail
dir=${1:?DIR}; max=${2:-28}; mem=${3:-5G}; bin=${4:-target/release/mancala}
mkdir -p "$dir"
csv=$dir/layers.csv log=$dir/build.log
[ -f "$csv" ] || echo "stones,positions,crc32,seconds,peak_rss_kib,finished_utc" >"$csv"
(/usr/bin/time -v nice -n 19 "$bin" oware db build --index reachable --max-stones "$max" \
    --dir "$dir/db" --memory "$mem" --threads 2 2>&1) | while IFS= read -r line; do
  echo "$(date -u +%H:%M:%S) $line" >>"$log"
  pid=$(pgrep -n -f "$bin oware db build --index reachable --max-stones $max --dir $dir/db" || true)
  if [[ "$line" =~ ^layer\ +([0-9]+):\ +([0-9]+)\ positions\ in\ +([0-9.]+)\ s.*crc32\ ([0-9a-f]{8}) ]]; then
    hwm=""
    if [ -n "$pid" ] && [ -r "/proc/$pid/status" ]; then
      hwm=$(awk '/VmHWM/{print $2}' "/proc/$pid/status")
      echo 5 >"/proc/$pid/clear_refs" 2>/dev/null || true
    fi
    echo "${BASH_REMATCH[1]},${BASH_REMATCH[2]},${BASH_REMATCH[4]},${BASH_REMATCH[3]},$hwm,$(date -u +%FT%TZ)" >>"$csv"
  fi
done
