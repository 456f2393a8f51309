#!/usr/bin/env bash
# The issue's Fig.-16-size fail-over in network namespaces (docs/ha.md, "bench/ha_netns.sh"):
# the two shaped clusters of scripts/netns-cluster.sh (10 + 10 nodes, node links d = D/k,
# the backbone D), etcd (3 members) and two coordinators in cluster 1's router namespace,
# one agent per node namespace that knows both coordinators; a job of every pair's file
# (sizes uniform in [A, B] MB, seeded; OGGP at k) with the leader killed (SIGKILL) when
# half its bytes are done, against the same job without, alternating, R runs each. Every
# destination byte is compared with its source. Root only.
#
#   sudo bench/ha_netns.sh [--repeats R] [--min-mb A] [--max-mb B] [--seed S] [--backbone-mbit D]
#                          [--k K] [--ttl T] [--bin BUILD_DIR] [--out FILE]
#
# Defaults: R = 2, [1, 4] MB, seed 16, D = 100 Mbit/s, K = 5, T = 2 s, BUILD_DIR =
# build/release (built as bench/fig16.sh builds it; needs baton-coordinator and
# baton-agent), FILE = docs/bench/ha-netns.jsonl. About 30 s a run.
set -euo pipefail
cd "$(dirname "$0")/.."

repeats=2
min_mb=1
max_mb=4
seed=16
backbone_mbit=100
k=5
ttl=2
bin=
out=docs/bench/ha-netns.jsonl
extra_option() {
  case "$1" in
    --k) [[ "$2" =~ ^[1-9][0-9]*$ ]] || { echo "ha_netns.sh: --k must be a positive integer" >&2; exit 2; }; k=$2 ;;
    --ttl) [[ "$2" =~ ^[1-9][0-9]*$ ]] || { echo "ha_netns.sh: --ttl must be whole seconds" >&2; exit 2; }; ttl=$2 ;;
    *) return 1 ;;
  esac
}
source bench/netns_bench.sh
netns_bench_setup ha_netns.sh "$@"
[ -x /usr/bin/etcd ] || { echo "ha_netns.sh: /usr/bin/etcd is missing (Debian etcd-server; scripts/setup.sh)" >&2; exit 1; }

prefix=hafo
work=$(mktemp -d /tmp/baton-ha-netns.XXXXXX)
cluster() { scripts/netns-cluster.sh "$@" --prefix "$prefix"; }
cleanup() {
  local status=$?
  cluster down || true
  if [ "$status" -eq 0 ]; then rm -rf "$work"; else echo "ha_netns.sh: logs and files kept in $work" >&2; fi
}
trap cleanup EXIT

backbone_bytes=$(awk -v m="$backbone_mbit" 'BEGIN { printf "%d", m * 1000000 / 8 }')
node_bytes=$((backbone_bytes / k))
cluster up 10 10 --node-rate "$(mbit $node_bytes)" --backbone-rate "$(mbit $((k * node_bytes)))"
ip netns exec "$prefix-gw1" ip link set lo up  # etcd and the coordinators' APIs listen on its loopback
python3 scripts/netns_traffic.py make "$work" --senders 10 --receivers 10 --min-mb "$min_mb" --max-mb "$max_mb" \
  --seed "$seed"
mkdir -p "$(dirname "$out")"
ip netns exec "$prefix-gw1" python3 bench/ha_netns_bench.py "$work" --bin "$bin" --prefix "$prefix" \
  --node-rate "$node_bytes" --k "$k" --ttl "$ttl" --runs "$repeats" | tee "$out"
