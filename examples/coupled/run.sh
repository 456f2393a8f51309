#!/usr/bin/env bash
# Two coupled codes under one mpirun (README.md here): a C producer with 4 ranks hands a
# 2-D field, block rows -> block-cyclic columns, to a Python consumer with 3 ranks every
# time step through a Baton coordinator started here; the consumer checks every element
# of every step. Prints `verified` and exits 0 when every step checked out.
#
#   examples/coupled/run.sh [BUILD_DIR] [ROWS COLS BLOCK STEPS]
#   (defaults: build/release, the tree scripts/run.sh makes; 512 384 16 10; BATON_PYTHON:
#   the Python with numpy and mpi4py)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build_arg=${1:-$(cd "$here/../.." && pwd)/build/release}
targets="baton-coordinator coupled_producer baton_python"
[ -d "$build_arg" ] || { echo "run.sh: no build tree at $build_arg (scripts/run.sh makes build/release; then cmake --build build/release --target $targets)" >&2; exit 2; }
build=$(cd "$build_arg" && pwd)
rows=${2:-512} cols=${3:-384} block=${4:-16} steps=${5:-10}
for n in "ROWS $rows" "COLS $cols" "BLOCK $block" "STEPS $steps"; do
  [[ ${n#* } =~ ^[1-9][0-9]{0,5}$ ]] || { echo "run.sh: ${n% *} must be a whole number from 1 to 999999, not '${n#* }'" >&2; exit 2; }
done
python=${BATON_PYTHON:-/usr/bin/python3}
coordinator_bin=$build/coordinator/daemon/baton-coordinator
producer_bin=$build/examples/coupled/coupled_producer
for f in "$coordinator_bin" "$producer_bin" "$build/python/baton/__init__.py"; do
  [ -e "$f" ] || { echo "run.sh: $f is missing (cmake --build $build_arg --target $targets)" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/baton-coupled.XXXXXX")
coordinator_pid=
cleanup() {
  if [ -n "$coordinator_pid" ]; then
    kill "$coordinator_pid" 2>/dev/null || true
    wait "$coordinator_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# A coordinator of its own on loopback, on ports the kernel picks.
source "$here/coordinator.sh"
start_coordinator "$work" "$coordinator_bin" "$python" || exit 1
export PYTHONPATH=$build/python${PYTHONPATH:+:$PYTHONPATH}

mpi_options
status=0
mpirun "${mpi[@]}" -x BATON_API -x BATON_COORDINATOR -x BATON_SECRET_FILE -x PYTHONPATH \
  -np 4 "$producer_bin" "$rows" "$cols" "$block" "$steps" : \
  -np 3 "$python" "$here/consumer.py" "$rows" "$cols" "$block" "$steps" | tee "$work/output" || status=$?
if [ "$status" -ne 0 ] || ! grep -qx verified "$work/output"; then
  echo "run.sh: the coupled run failed (mpirun exited $status); the coordinator's log:" >&2
  tail -n 40 "$work/coordinator.log" >&2
  exit 1
fi
