# Sourced by the MPI scripts (oware_mpi_check.sh, oware_mpi_memory.sh) from the repository's
# root: builds the binary with MPI, sets `bin`, a temporary `work` directory removed at exit,
# OpenMPI's allow-root variables (CI containers run as root) and `fail`.
cargo build --release --locked --quiet --features mpi
bin=$PWD/target/release/mancala
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
