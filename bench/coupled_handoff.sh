#!/usr/bin/env bash
# The coupled handoff against one MPI_Alltoallv over an inter-communicator (docs/embedding.md,
# "Benchmark"): 4 producer ranks and 3 consumer ranks under one mpirun on this machine
# (loopback), a coordinator of its own, the sizes in MiB per step given (default 1 16 64).
# Prints a header and one tab-separated line per method and size (bench/coupled_handoff.cpp).
#
#   bench/coupled_handoff.sh [BUILD_DIR] [MIB...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build/ci}" && pwd)
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 16 64)
bench_bin=$build/bench/coupled_handoff
coordinator_bin=$build/coordinator/daemon/baton-coordinator
for f in "$bench_bin" "$coordinator_bin"; do
  [ -x "$f" ] || { echo "coupled_handoff.sh: $f is missing (build coupled_handoff and baton-coordinator)" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/baton-coupled-bench.XXXXXX")
coordinator_pid=
cleanup() {
  if [ -n "$coordinator_pid" ]; then
    kill "$coordinator_pid" 2>/dev/null || true
    wait "$coordinator_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
source "$here/../examples/coupled/coordinator.sh"
start_coordinator "$work" "$coordinator_bin" python3
mpi_options
export BATON_PRODUCERS=4
echo -e "method\tmib\trows\tcols\tblock\trepetitions\tmedian_s\tbest_s\tworst_s\tbound_s"
# BATON_SAME_HOST_MEMORY=on: peers on this host through shared memory (bench/coupled_handoff.cpp);
# BATON_REPETITIONS: timed steps per size.
export BATON_SAME_HOST_MEMORY=${BATON_SAME_HOST_MEMORY:-off}
# BATON_KEEP_PLANS=off: every handoff a job (method "baton"); on (the default): the agents
# keep the first job's plan and each later handoff exchanges it ("baton-kept").
export BATON_KEEP_PLANS=${BATON_KEEP_PLANS:-on}
passed=(-x BATON_API -x BATON_COORDINATOR -x BATON_SECRET_FILE -x BATON_PRODUCERS -x BATON_SAME_HOST_MEMORY
  -x BATON_KEEP_PLANS)
[ -z "${BATON_REPETITIONS:-}" ] || passed+=(-x BATON_REPETITIONS)
mpirun "${mpi[@]}" "${passed[@]}" \
  -np 7 "$bench_bin" "${sizes[@]}"
