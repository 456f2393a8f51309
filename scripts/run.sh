#!/usr/bin/env bash
# The main job: a real redistribution on this machine. Builds Baton (build/release),
# starts a coordinator and two clusters of agents on loopback (4 senders, 4 receivers),
# writes a random array held block-wise by the senders, redistributes it block-cyclically
# over the receivers with the coordinator's plan, checks every destination byte against
# the source array, prints the report, and stops everything it started. Run with --help.
set -euo pipefail
cd "$(dirname "$0")/.."

algorithms=(oggp-plus oggp ggp h-weight h-degree all-at-once)  # batonctl plan redistribution --help
usage() {
  cat <<EOF
Usage: scripts/run.sh [--algo NAME] [--size SIZE] [--keep]
  --algo NAME   the coordinator's algorithm: ${algorithms[*]} (default oggp)
  --size SIZE   the array's size: bytes, or a number with kB, MB, GB (10^3, 10^6, 10^9 bytes)
                or KiB, MiB, GiB (2^10, 2^20, 2^30); from 1 byte (default 256MB)
  --keep        keep the work directory (logs, configurations, every node's data) afterwards;
                without it only a failed or interrupted run keeps its logs
Sizes and rates are printed in decimal units (MB = 10^6 bytes), as batonctl prints them.
EOF
}
fail_usage() {
  echo "run.sh: $*" >&2
  echo "Run scripts/run.sh --help for the options." >&2
  exit 2
}

# Every argument is checked before anything is built or started.
algo=oggp
size=256MB
keep=false
while [ $# -gt 0 ]; do
  case "$1" in
    --help | -h) usage; exit 0 ;;
    --algo | --size)
      [ $# -ge 2 ] || fail_usage "$1 needs a value"
      [ "$1" = --algo ] && algo=$2 || size=$2
      shift ;;
    --keep) keep=true ;;
    *) fail_usage "unknown argument '$1'" ;;
  esac
  shift
done
[[ " ${algorithms[*]} " == *" $algo "* ]] || fail_usage "--algo '$algo' is not one of: ${algorithms[*]}"
bytes=$(python3 - "$size" <<'PY'
import re, sys
m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\s*(|B|kB|KB|MB|GB|KiB|MiB|GiB)", sys.argv[1])
units = {"": 1, "B": 1, "kB": 10**3, "KB": 10**3, "MB": 10**6, "GB": 10**9, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}
n = round(float(m.group(1)) * units[m.group(2)]) if m else 0
print(n if m and n >= 1 and n == float(m.group(1)) * units[m.group(2)] else "")
PY
)
[ -n "$bytes" ] || fail_usage "--size '$size' is not a whole number of bytes of at least 1 (e.g. 1, 4096, 64MB, 1.5GB, 256MiB)"
block=1000000  # 1 MB blocks on the receivers
free_kb=$(df -Pk /tmp | awk 'NR == 2 {print $4}')
(( bytes / 1000 * 2 < free_kb )) || fail_usage "--size $size needs twice that in /tmp (senders' and receivers' copies); /tmp has $((free_kb / 1000)) MB free"

# The daemons, and every program README.md's commands name (tests/scripts/readme_commands_test.py).
# ccache (when installed) keys objects on paths relative to this checkout, as in test.sh.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DBATON_BUILD_TESTS=OFF -DBATON_BUILD_BENCH=ON >/dev/null
cmake --build build/release -j "$(nproc)" --target batonctl baton-coordinator baton-agent \
  kpbs_quality kpbs_speed transport_throughput transport_pacing transport_memory
bin=build/release
batonctl=$bin/coordinator/batonctl/batonctl

work=$(mktemp -d /tmp/baton-run.XXXXXX)
pids=()
# SIGTERM lets a daemon finish a running step, which waits for peers that are stopping
# too: what still runs after 3 s is killed.
stop_daemons() {
  local p left
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for _ in $(seq 30); do
    left=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && left=1; done
    [ "$left" = 0 ] && break
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
cleanup() {
  local status=$?
  stop_daemons
  if $keep; then
    echo "run.sh: kept everything in $work"
  elif [ "$status" -ne 0 ]; then
    rm -rf "$work"/*/data "$work/array.seed"
    echo "run.sh: logs kept in $work (coordinator.log, <node>/agent.log)" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'echo; echo "run.sh: interrupted; stopping the daemons" >&2; exit 130' INT TERM

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
# The daemons run in sessions of their own (setsid): a Ctrl-C reaches this script, which
# stops them itself and says so.
setsid $bin/coordinator/daemon/baton-coordinator --config "$work/coordinator.toml" --ready-file "$work/ready.json" \
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
scripts/run_array.py write "$work" "$bytes" "${senders[@]}"

for node in "${senders[@]}" "${receivers[@]}"; do
  setsid $bin/agent/baton-agent --config "$work/$node/agent.toml" 2> "$work/$node/agent.log" &
  pids+=($!)
done
alive=0
for _ in $(seq 100); do
  # No pipes or fallbacks in $(...): a Ctrl-C must kill the command, so that bash runs its trap.
  "$batonctl" agents --output json > "$work/agents.json" 2>/dev/null || true
  alive=$(python3 -c 'import json, sys
try: print(sum(a["alive"] for a in json.load(open(sys.argv[1]))["agents"]))
except (OSError, ValueError, KeyError, TypeError): print(0)' "$work/agents.json")
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
echo "submitting: $(scripts/run_array.py size "$bytes"), block -> block-cyclic (1 MB blocks), 4 -> 4 nodes," \
  "50 MB/s per node, 150 MB/s backbone (k = 3), algorithm $algo"
if [ "$algo" = all-at-once ]; then
  echo "note: all-at-once is the unscheduled baseline and runs unpaced: on loopback its flows move at memory" \
    "speed, not at the declared 50 MB/s per node, so its times are not comparable with the scheduled algorithms'."
fi
id=$("$batonctl" submit "$work/job.json")
"$batonctl" watch "$id"

# Every destination byte against the source array (block i lives on receiver i mod 4).
scripts/run_array.py verify "$work" "$bytes" "$block" "${receivers[@]}"
