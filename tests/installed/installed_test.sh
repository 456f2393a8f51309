#!/usr/bin/env bash
# The embedded agent from an installed Baton, as a coupled application uses it: installs
# Baton's "embedded" component into a temporary prefix, builds tests/installed/project
# against it with CMake (find_package(Baton)) and with pkg-config, starts a coordinator,
# and runs a job from one build's region to the other's; the receiver checks every byte.
#   installed_test.sh CMAKE BUILD_DIR PROJECT_DIR BATON_COORDINATOR BATONCTL CXX [SANITIZE_FLAGS]
# Both application builds use CXX, the compiler that built Baton. A sanitizer build's
# library needs an application built with the same compiler's sanitizers (their runtime
# must come first): SANITIZE_FLAGS, when given, go to both application builds.
set -euo pipefail
[ $# -ge 6 ] || { echo "usage: installed_test.sh CMAKE BUILD_DIR PROJECT_DIR BATON_COORDINATOR BATONCTL CXX [SANITIZE_FLAGS]" >&2; exit 2; }
cmake=$1 build=$2 project=$3 coordinator=$4 batonctl=$5 cxx=$6 sanitize=${7:-}
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "installed_test.sh: $*" >&2
  for log in "$work"/*.log; do echo "== $log" >&2; cat "$log" >&2; done
  exit 1
}

"$cmake" --install "$build" --component embedded --prefix "$work/prefix" >/dev/null
"$cmake" -S "$project" -B "$work/with-cmake" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="$sanitize" -DCMAKE_EXE_LINKER_FLAGS="$sanitize" >/dev/null
"$cmake" --build "$work/with-cmake" >/dev/null
pc=$(find "$work/prefix" -name baton-agent-embedded.pc)
[ -n "$pc" ] || fail "no baton-agent-embedded.pc installed"
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs baton-agent-embedded)
# shellcheck disable=SC2086  # the flags are words (and so are the sanitizer's)
"$cxx" $sanitize "$project/coupled.cpp" -o "$work/with-pkg-config" $flags
export LD_LIBRARY_PATH
LD_LIBRARY_PATH=$(dirname "$(find "$work/prefix" -name 'libbaton_agent_embedded.so*' | head -n 1)")

head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/secret"
cat > "$work/coordinator.toml" <<TOML
id = "coordinator"
agent_address = "127.0.0.1:0"
api_address = "127.0.0.1:0"
secret_file = "secret"
state_dir = "state"
heartbeat_seconds = 0.5
TOML
"$coordinator" --config "$work/coordinator.toml" --ready-file "$work/ready.json" 2> "$work/coordinator.log" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/ready.json" ] && break; sleep 0.1; done
[ -s "$work/ready.json" ] || fail "the coordinator did not start"
agents=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["agents"])' "$work/ready.json")
api=http://$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["api"])' "$work/ready.json")

bytes=3000000
"$work/with-cmake/coupled" e0 "$agents" "$work/secret" u $bytes send 1 "$work/ended" > "$work/e0.out" 2> "$work/e0.log" &
sender=$!
pids+=($sender)
"$work/with-pkg-config" e1 "$agents" "$work/secret" v $bytes receive 1 "$work/ended" > "$work/e1.out" 2> "$work/e1.log" &
receiver=$!
pids+=($receiver)
for _ in $(seq 200); do
  grep -q registered "$work/e0.out" && grep -q registered "$work/e1.out" && break
  sleep 0.1
done
grep -q registered "$work/e0.out" && grep -q registered "$work/e1.out" || fail "the two nodes did not register"

cat > "$work/job.json" <<JSON
{"senders": ["e0"], "receivers": ["e1"],
 "platform": {"sender_rate": 50e6, "receiver_rate": 50e6, "backbone_rate": 50e6, "step_startup": 0.001},
 "transfers": [{"src_node": "e0", "src_file": "u", "src_offset": 0, "length": $bytes,
                "dst_node": "e1", "dst_file": "v", "dst_offset": 0}]}
JSON
"$batonctl" submit "$work/job.json" --coordinator "$api" --wait > "$work/batonctl.log" 2>&1 || fail "the job failed"
touch "$work/ended"  # the job is done at the coordinator: the nodes may leave
wait "$sender" || fail "the sender (built with CMake) failed"
wait "$receiver" || fail "the receiver (built with pkg-config) failed"
grep -q "verified $bytes bytes" "$work/e1.out" || fail "the receiver did not verify the bytes"
echo "ok: find_package(Baton) and pkg-config builds moved and verified $bytes bytes through a coordinator"
