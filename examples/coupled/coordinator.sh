# Sourced by examples/coupled/run.sh and bench/coupled_handoff.sh: starts a Baton
# coordinator of its own on loopback ports the kernel picks, in directory $1, with the
# binary $2 and Python $3 (to read its ready file); exports BATON_API,
# BATON_COORDINATOR and BATON_SECRET_FILE for the coupled programs, and sets
# coordinator_pid (the caller stops it). Returns non-zero, with the log, if it did not start.
start_coordinator() {
  local work=$1 binary=$2 python=$3
  head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/secret"
  cat > "$work/coordinator.toml" <<TOML
agent_address = "127.0.0.1:0"
api_address = "127.0.0.1:0"
secret_file = "secret"
state_dir = "state"
heartbeat_seconds = 0.5
TOML
  "$binary" --config "$work/coordinator.toml" --ready-file "$work/ready.json" 2> "$work/coordinator.log" &
  coordinator_pid=$!
  for _ in $(seq 200); do
    [ -s "$work/ready.json" ] && break
    kill -0 "$coordinator_pid" 2>/dev/null || break
    sleep 0.05
  done
  if [ ! -s "$work/ready.json" ]; then
    echo "the coordinator did not start:" >&2
    cat "$work/coordinator.log" >&2
    return 1
  fi
  BATON_API=$("$python" -c "import json, sys; print(json.load(open(sys.argv[1]))['api'])" "$work/ready.json")
  BATON_COORDINATOR=$("$python" -c "import json, sys; print(json.load(open(sys.argv[1]))['agents'])" "$work/ready.json")
  BATON_SECRET_FILE=$work/secret
  export BATON_API BATON_COORDINATOR BATON_SECRET_FILE
}

# Open MPI's options for 7 ranks on however few cores (--oversubscribe, unbound); as root
# it must be told that is meant; in a container, no cross-memory attach between ranks.
mpi_options() {
  mpi=(--oversubscribe --bind-to none)
  [ "$(id -u)" -ne 0 ] || mpi+=(--allow-run-as-root)
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
}
