#!/usr/bin/env bash
# The reachable-only index against the full one on databases built by the CLI: every position
# the reachable database holds has the full database's value, every 61st position it leaves out
# probes (one ply into held positions) as the full one holds it.
#
#   scripts/oware_reachable_check.sh MAX FULL_DIR REACHABLE_DIR
#
# Builds what is missing of both (resumable; a finished full database is reused), then
# compares layer by layer. Memory: the larger build's peak (about 2.1 GB at 24 seeds).
set -euo pipefail
max=${1:?MAX seeds}; full=${2:?FULL_DIR}; reach=${3:?REACHABLE_DIR}
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/mancala
time nice -n 10 "$bin" oware db build --max-stones "$max" --dir "$full" --index full
time nice -n 10 "$bin" oware db build --max-stones "$max" --dir "$reach" --index reachable
time MANCALA_FULL_DB="$full" MANCALA_REACHABLE_DB="$reach" nice -n 10 \
    cargo test --release --quiet --test oware_reachable reachable_database_equals_full_database -- --ignored --nocapture
