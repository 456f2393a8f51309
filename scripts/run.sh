#!/usr/bin/env bash
# The main job: a real redistribution on this machine. Builds Baton (build/release),
# starts a coordinator and two clusters of agents on loopback (4 senders, 4 receivers),
# writes a random array held block-wise by the senders, redistributes it block-cyclically
# over the receivers with the coordinator's plan, checks every destination byte against
# the source array, prints the report, and stops everything it started.
#   scripts/run.sh [--algo oggp|ggp|h-weight|h-degree|all-at-once] [--mib N]
set -euo pipefail
cd "$(dirname "$0")/.."

algo=oggp
mib=256
while [ $# -gt 0 ]; do
  case "$1" in
    --algo) algo=$2; shift ;;
    --mib) mib=$2; shift ;;
    *) echo "run.sh: unknown argument '$1' (use --algo NAME, --mib N)" >&2; exit 2 ;;
  esac
  shift
done

cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DBATON_BUILD_TESTS=OFF -DBATON_BUILD_BENCH=OFF >/dev/null
cmake --build build/release -j "$(nproc)" --target batonctl baton-coordinator baton-agent
bin=build/release
batonctl=$bin/coordinator/batonctl/batonctl

work=$(mktemp -d /tmp/baton-run.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

senders=(a0 a1 a2 a3)
receivers=(b0 b1 b2 b3)
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/secret"
cat > "$work/coordinator.toml" <<TOML
id = "coordinator"
agent_address = "127.0.0.1:0"
api_address = "127.0.0.1:0"
secret_file = "secret"
state_dir = "state"
heartbeat_seconds = 0.5
TOML
$bin/coordinator/daemon/baton-coordinator --config "$work/coordinator.toml" --ready-file "$work/ready.json" \
  2> "$work/coordinator.log" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/ready.json" ] && break; sleep 0.1; done
[ -s "$work/ready.json" ] || { echo "run.sh: the coordinator did not start:" >&2; cat "$work/coordinator.log" >&2; exit 1; }
agents_at=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["agents"])' "$work/ready.json")
export BATON_COORDINATOR=http://$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["api"])' "$work/ready.json")
echo "coordinator: agents at $agents_at, API at $BATON_COORDINATOR, logs in $work"

# Every node: its data root and its configuration.
for node in "${senders[@]}" "${receivers[@]}"; do
  mkdir -p "$work/$node/data"
  cat > "$work/$node/agent.toml" <<TOML
node_id = "$node"
coordinator = "$agents_at"
secret_file = "../secret"
data_root = "data"
data_address = "127.0.0.1:0"
rate = 50000000
buffer_count = 16
buffer_size = 1048576
TOML
done

# The array: random bytes, held block-wise by the senders (node p has the p-th quarter).
bytes=$((mib * 1024 * 1024))
block=$((1024 * 1024))
python3 - "$work" "$bytes" "${senders[@]}" <<'PY'
import os, sys
work, size, senders = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
data = os.urandom(size)
open(f"{work}/array.bin", "wb").write(data)
piece = -(-size // len(senders))
for p, node in enumerate(senders):
    open(f"{work}/{node}/data/array.bin", "wb").write(data[p * piece:(p + 1) * piece])
PY

for node in "${senders[@]}" "${receivers[@]}"; do
  $bin/agent/baton-agent --config "$work/$node/agent.toml" 2> "$work/$node/agent.log" &
  pids+=($!)
done
for _ in $(seq 100); do
  alive=$("$batonctl" agents --output json 2>/dev/null | python3 -c 'import json,sys; print(sum(a["alive"] for a in json.load(sys.stdin)["agents"]))' || echo 0)
  [ "$alive" = 8 ] && break
  sleep 0.1
done
[ "$alive" = 8 ] || { echo "run.sh: only $alive of 8 agents registered" >&2; tail -n 5 "$work"/*/agent.log >&2; exit 1; }
"$batonctl" agents

# 50 MB/s per node, a 150 MB/s backbone: k = 3 flows at a time (the paper's k = ⌊D/d⌋).
python3 - "$work/job.json" "$bytes" "$block" "$algo" <<'PY'
import json, sys
path, size, block, algo = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
json.dump({"senders": ["a0", "a1", "a2", "a3"], "receivers": ["b0", "b1", "b2", "b3"], "algorithm": algo,
           "platform": {"sender_rate": 50e6, "receiver_rate": 50e6, "backbone_rate": 150e6, "step_startup": 0.01},
           "pattern": {"bytes": size, "from": "block", "to": "block-cyclic", "to_block": block}},
          open(path, "w"))
PY
echo "submitting: $mib MiB, block -> block-cyclic(1 MiB), 4 -> 4 nodes, algorithm $algo"
id=$("$batonctl" submit "$work/job.json")
"$batonctl" watch "$id"

# Every destination byte against the source array (block i lives on receiver i mod 4).
python3 - "$work" "$bytes" "$block" "${receivers[@]}" <<'PY'
import sys
work, size, block, receivers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
data = open(f"{work}/array.bin", "rb").read()
expected = [bytearray() for _ in receivers]
for i in range(0, size, block):
    expected[(i // block) % len(receivers)] += data[i:i + block]
for q, node in enumerate(receivers):
    got = open(f"{work}/{node}/data/array.bin", "rb").read()
    if got != bytes(expected[q]):
        first = next((i for i, (a, b) in enumerate(zip(got, expected[q])) if a != b), min(len(got), len(expected[q])))
        sys.exit(f"run.sh: {node}/array.bin differs from the source array at byte {first} "
                 f"({len(got)} bytes, {len(expected[q])} expected)")
print(f"verified: all {size} bytes landed where the block-cyclic layout puts them on {len(receivers)} receivers")
PY
