#!/usr/bin/env bash
# Starts Baton's daemons in a namespace cluster made by scripts/netns-cluster.sh or
# scripts/netns-star.sh, and one agent per node namespace, with its data address on its own
# eth0 address. Two clusters: the coordinator in P-gw1 (cluster 1's router; agents reach
# it at 10.77.1.254:7071 through their own links, receivers across the backbone). A star:
# the coordinator in P-sw (the switch, 10.78.0.254:7071). Its API is 127.0.0.1:7070 inside
# that namespace.
#
#   scripts/netns-daemons.sh start WORK --bin BUILD_DIR --rate BYTES_PER_S[,BYTES_PER_S...]
#                                      [--prefix P] [--silence SECONDS]
#   scripts/netns-daemons.sh stop WORK
#   scripts/netns-daemons.sh ctl WORK [--prefix P] -- BATONCTL_ARGS...
#
# WORK holds the configurations, logs, pids and each node's data root (WORK/<node>/data);
# nodes are named like their namespaces: s1..sN1 and r1..rN2, or n0..nN-1. --rate is every
# agent's declared rate, or one per node in the order above (a star of unequal links).
# `start` waits until every agent is registered; `stop` ends the processes it started
# (pids in WORK/pids). `ctl` runs BUILD_DIR's batonctl against the coordinator's API.
# --silence sets the agents' flow_silence_seconds (default: the agent's own, 30 s).
set -euo pipefail

die() { echo "netns-daemons.sh: $*" >&2; exit 1; }

command=${1:-}
work=${2:-}
[ -n "$command" ] && [ -n "$work" ] || { sed -n '9,12p' "$0" | sed 's/^#  */usage: /' >&2; exit 2; }
shift 2
prefix=baton
bin=
rate=
silence=
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=$2; shift ;;
    --bin) bin=$2; shift ;;
    --rate) rate=$2; shift ;;
    --silence) silence=$2; shift ;;
    --) shift; break ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
mkdir -p "$work"
work=$(cd "$work" && pwd)
[ -z "$bin" ] || bin=$(cd "$bin" && pwd)
[ -n "$bin" ] || bin=$(cat "$work/bin" 2>/dev/null || true)

# The namespace the coordinator runs in, and where agents reach it.
if ip netns list | grep -q "^$prefix-sw\b"; then
  hub="$prefix-sw" coordinator_address=10.78.0.254:7071
else
  hub="$prefix-gw1" coordinator_address=10.77.1.254:7071
fi

batonctl() {
  ip netns exec "$hub" env BATON_COORDINATOR=http://127.0.0.1:7070 "$bin/coordinator/batonctl/batonctl" "$@"
}

nodes() {
  ip netns list | awk '{print $1}' | grep -E "^${prefix}-[srn][0-9]+\$" | sed "s/^${prefix}-//" | sort -V || true
}

stop() {
  [ -f "$work/pids" ] || return 0
  local pid
  for pid in $(cat "$work/pids"); do kill "$pid" 2>/dev/null || true; done
  for pid in $(cat "$work/pids"); do
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
  done
  rm -f "$work/pids"
}

start() {
  [ -x "$bin/agent/baton-agent" ] || die "no baton-agent under --bin '$bin'"
  [[ "$rate" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "--rate must be positive whole numbers of bytes/s, comma-separated (got '$rate')"
  [ -z "$silence" ] || [[ "$silence" =~ ^[1-9][0-9]*$ ]] || die "--silence must be a positive whole number of seconds (got '$silence')"
  ip netns list | grep -q "^$hub\b" || die "no namespace $hub (run scripts/netns-cluster.sh or netns-star.sh up first)"
  local -a rates
  IFS=, read -ra rates <<<"$rate"
  local -a all_nodes
  mapfile -t all_nodes < <(nodes)
  [ ${#rates[@]} -eq 1 ] || [ ${#rates[@]} -eq ${#all_nodes[@]} ] ||
    die "--rate lists ${#rates[@]} rates for ${#all_nodes[@]} nodes"
  stop
  echo "$bin" > "$work/bin"
  head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/secret"
  rm -rf "$work/state"
  cat > "$work/coordinator.toml" <<TOML
id = "coordinator"
agent_address = "$coordinator_address"
api_address = "127.0.0.1:7070"
secret_file = "secret"
state_dir = "state"
heartbeat_seconds = 1
TOML
  rm -f "$work/ready.json"
  ip netns exec "$hub" "$bin/coordinator/daemon/baton-coordinator" --config "$work/coordinator.toml" \
    --ready-file "$work/ready.json" 2> "$work/coordinator.log" &
  echo $! >> "$work/pids"
  for _ in $(seq 100); do [ -s "$work/ready.json" ] && break; sleep 0.1; done
  [ -s "$work/ready.json" ] || die "the coordinator did not start: $(tail -n 5 "$work/coordinator.log")"

  local node count=0 address node_rate
  for node in "${all_nodes[@]}"; do
    case "$node" in
      s*) address=10.77.1.${node#s} ;;
      r*) address=10.77.2.${node#r} ;;
      n*) address=10.78.0.$((${node#n} + 1)) ;;
    esac
    node_rate=${rates[0]}
    [ ${#rates[@]} -eq 1 ] || node_rate=${rates[$count]}
    mkdir -p "$work/$node/data"
    cat > "$work/$node/agent.toml" <<TOML
node_id = "$node"
coordinator = "$coordinator_address"
secret_file = "../secret"
data_root = "data"
data_address = "$address:7072"
rate = $node_rate
buffer_count = 16
buffer_size = 1048576
${silence:+flow_silence_seconds = $silence}
TOML
    ip netns exec "$prefix-$node" "$bin/agent/baton-agent" --config "$work/$node/agent.toml" 2> "$work/$node/agent.log" &
    echo $! >> "$work/pids"
    count=$((count + 1))
  done
  [ "$count" -gt 0 ] || die "no node namespaces with prefix '$prefix'"
  local alive=0
  for _ in $(seq 150); do
    alive=$(batonctl agents -o json 2>/dev/null |
            python3 -c 'import json,sys; print(sum(a["alive"] for a in json.load(sys.stdin)["agents"]))' 2>/dev/null || echo 0)
    [ "$alive" = "$count" ] && break
    sleep 0.2
  done
  [ "$alive" = "$count" ] || die "only $alive of $count agents registered (logs in $work)"
  echo "netns-daemons.sh: coordinator in $hub and $count agents up (work dir $work)"
}

case "$command" in
  start) start ;;
  stop) stop ;;
  ctl) batonctl "$@" ;;
  *) die "unknown command '$command' (start, stop, ctl)" ;;
esac
