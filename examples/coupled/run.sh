#!/usr/bin/env bash
# Two coupled codes under one mpirun (README.md here): a C producer with 4 ranks hands a
# 2-D field, block rows -> block-cyclic columns, to a Python consumer with 3 ranks every
# time step through a Baton coordinator started here; the consumer checks every element
# of every step. Prints `verified` and exits 0 when every step checked out.
#
#   examples/coupled/run.sh [BUILD_DIR] [ROWS COLS BLOCK STEPS]
#   (defaults: build/ci, 512 384 16 10; BATON_PYTHON: the Python with numpy and mpi4py)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build/ci}" && pwd)
rows=${2:-512} cols=${3:-384} block=${4:-16} steps=${5:-10}
python=${BATON_PYTHON:-/usr/bin/python3}
coordinator_bin=$build/coordinator/daemon/baton-coordinator
producer_bin=$build/examples/coupled/coupled_producer
for f in "$coordinator_bin" "$producer_bin" "$build/python/baton/__init__.py"; do
  [ -e "$f" ] || { echo "run.sh: $f is missing (build the targets baton-coordinator, coupled_producer, baton_python)" >&2; exit 2; }
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
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/secret"
cat > "$work/coordinator.toml" <<TOML
agent_address = "127.0.0.1:0"
api_address = "127.0.0.1:0"
secret_file = "secret"
state_dir = "state"
heartbeat_seconds = 0.5
TOML
"$coordinator_bin" --config "$work/coordinator.toml" --ready-file "$work/ready.json" 2> "$work/coordinator.log" &
coordinator_pid=$!
for _ in $(seq 200); do
  [ -s "$work/ready.json" ] && break
  kill -0 "$coordinator_pid" 2>/dev/null || { cat "$work/coordinator.log" >&2; exit 1; }
  sleep 0.05
done
[ -s "$work/ready.json" ] || { echo "run.sh: the coordinator did not start" >&2; cat "$work/coordinator.log" >&2; exit 1; }
address() { "$python" -c "import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$work/ready.json" "$1"; }
export BATON_API=$(address api) BATON_COORDINATOR=$(address agents) BATON_SECRET_FILE=$work/secret
export PYTHONPATH=$build/python${PYTHONPATH:+:$PYTHONPATH}

# Open MPI: 7 ranks on however few cores (--oversubscribe, unbound); as root it must be
# told that is meant; in a container, no cross-memory attach between ranks.
mpi=(--oversubscribe --bind-to none)
[ "$(id -u)" -ne 0 ] || mpi+=(--allow-run-as-root)
export OMPI_MCA_btl_vader_single_copy_mechanism=none
status=0
mpirun "${mpi[@]}" -x BATON_API -x BATON_COORDINATOR -x BATON_SECRET_FILE -x PYTHONPATH \
  -np 4 "$producer_bin" "$rows" "$cols" "$block" "$steps" : \
  -np 3 "$python" "$here/consumer.py" "$rows" "$cols" "$block" "$steps" | tee "$work/output" || status=$?
if [ "$status" -ne 0 ] || ! grep -qx verified "$work/output"; then
  echo "run.sh: the coupled run failed (mpirun exited $status); the coordinator's log:" >&2
  tail -n 40 "$work/coordinator.log" >&2
  exit 1
fi
