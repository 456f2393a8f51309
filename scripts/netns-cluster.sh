#!/usr/bin/env bash
# Two clusters of network namespaces joined by a backbone, every link shaped with tc, so
# that real daemons run as on separate hosts with their own addresses (root only).
#
#   scripts/netns-cluster.sh up N1 N2 --node-rate MBIT --backbone-rate MBIT [--prefix P] [--queue-packets Q] [--bucket-ms MS]
#   scripts/netns-cluster.sh shape --node-rate MBIT --backbone-rate MBIT [--prefix P] [--queue-packets Q] [--bucket-ms MS]
#   scripts/netns-cluster.sh backbone-bytes [--prefix P]
#   scripts/netns-cluster.sh down [--prefix P]
#
# Topology (P = prefix, default "baton"; docs/fig16.md has the picture):
#   P-s1..P-sN1   senders,   eth0 = 10.77.1.i/24, default route via 10.77.1.254
#   P-r1..P-rN2   receivers, eth0 = 10.77.2.j/24, default route via 10.77.2.254
#   P-gw1         cluster 1's switch and router: bridge br0 (10.77.1.254) with one port
#                 per sender, and bb0 (10.77.0.1/30), its end of the backbone
#   P-gw2         the same for cluster 2: br0 (10.77.2.254), bb0 (10.77.0.2/30)
# Every node link is a veth pair shaped to the node rate d in both directions (a tbf on the
# node's eth0 for what it sends, one on the switch port for what it receives); the backbone
# is the veth pair bb0 = bb0, shaped to D in both directions. Each tbf holds at most Q
# full-size packets (default 100, a switch port's buffer) and drops beyond, and a bucket of
# MS milliseconds of its rate (default 1; docs/fig16.md says when 5 is the better choice).
# `up` removes leftovers of the same prefix first; `down` kills what still runs in the
# namespaces and deletes them, and is a no-op when there is nothing.
# `backbone-bytes` prints the bytes sent by the backbone's forward tbf (cluster 1 -> 2).
set -euo pipefail

usage() {
  sed -n '5,8p' "$0" | sed 's/^#  */usage: /' >&2
  exit 2
}

die() { echo "netns-cluster.sh: $*" >&2; exit 1; }

command=${1:-}
[ -n "$command" ] || usage
shift
prefix=baton
queue_packets=100
bucket_ms=1
node_mbit=
backbone_mbit=
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=$2; shift ;;
    --node-rate) node_mbit=$2; shift ;;
    --backbone-rate) backbone_mbit=$2; shift ;;
    --queue-packets) queue_packets=$2; shift ;;
    --bucket-ms) bucket_ms=$2; shift ;;
    -*) die "unknown option '$1'" ;;
    *) positional+=("$1") ;;
  esac
  shift
done
source "$(dirname "$0")/netns-lib.sh"
check_prefix_and_queue
[[ "$bucket_ms" =~ ^[1-9][0-9]?$ ]] || die "--bucket-ms must be a whole number of milliseconds, 1-99 (got '$bucket_ms')"

# The namespaces of this prefix that exist now.
our_namespaces() {
  ip netns list | awk '{print $1}' | grep -E "^${prefix}-(s[0-9]+|r[0-9]+|gw1|gw2)\$" || true
}

# Mbit/s (decimals allowed) -> whole bytes/s.
bytes_per_second() {
  local what=$1 mbit=$2
  [[ "$mbit" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "$what must be a positive number of Mbit/s (got '$mbit')"
  local bytes
  bytes=$(awk -v m="$mbit" 'BEGIN { printf "%d", m * 1000000 / 8 + 0.5 }')
  [ "$bytes" -gt 0 ] || die "$what must be > 0 (got '$mbit')"
  echo "$bytes"
}

count_nodes() {
  local role=$1
  our_namespaces | grep -c "^${prefix}-${role}[0-9]" || true
}

shape_all() {
  local node_bytes backbone_bytes n1 n2 i
  [ -n "$node_mbit" ] && [ -n "$backbone_mbit" ] || die "give --node-rate MBIT and --backbone-rate MBIT"
  node_bytes=$(bytes_per_second --node-rate "$node_mbit")
  backbone_bytes=$(bytes_per_second --backbone-rate "$backbone_mbit")
  n1=$(count_nodes s)
  n2=$(count_nodes r)
  [ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] || die "no cluster with prefix '$prefix' (run 'up' first)"
  for i in $(seq "$n1"); do
    shape_link "$prefix-s$i" eth0 "$node_bytes"
    shape_link "$prefix-gw1" "s$i" "$node_bytes"
  done
  for i in $(seq "$n2"); do
    shape_link "$prefix-r$i" eth0 "$node_bytes"
    shape_link "$prefix-gw2" "r$i" "$node_bytes"
  done
  shape_link "$prefix-gw1" bb0 "$backbone_bytes"
  shape_link "$prefix-gw2" bb0 "$backbone_bytes"
  echo "netns-cluster.sh: $prefix: $n1 x $n2 nodes, node links $node_bytes B/s, backbone $backbone_bytes B/s"
}

# One cluster: its gateway namespace with bridge br0 at 10.77.C.254 and N nodes P-<role>i.
make_cluster() {
  local c=$1 role=$2 n=$3 gw="$prefix-gw$1" i
  make_switch "$gw" "10.77.$c.254"
  ip netns exec "$gw" sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward'
  for i in $(seq "$n"); do
    attach_node "$prefix-$role$i" "$gw" "$role$i" "10.77.$c.$i"
    ip -n "$prefix-$role$i" route add default via "10.77.$c.254"
  done
}

up() {
  [ ${#positional[@]} -eq 2 ] || usage
  local n1=${positional[0]} n2=${positional[1]}
  [[ "$n1" =~ ^[1-9][0-9]*$ && "$n1" -le 200 ]] || die "N1 must be 1..200 (got '$n1')"
  [[ "$n2" =~ ^[1-9][0-9]*$ && "$n2" -le 200 ]] || die "N2 must be 1..200 (got '$n2')"
  [ -n "$node_mbit" ] && [ -n "$backbone_mbit" ] || die "give --node-rate MBIT and --backbone-rate MBIT"
  down
  trap 'status=$?; [ $status -eq 0 ] || { echo "netns-cluster.sh: up failed, removing what it made" >&2; down; }' EXIT
  make_cluster 1 s "$n1"
  make_cluster 2 r "$n2"
  ip link add bb0 netns "$prefix-gw1" type veth peer name bb0 netns "$prefix-gw2"
  ip -n "$prefix-gw1" addr add 10.77.0.1/30 dev bb0
  ip -n "$prefix-gw2" addr add 10.77.0.2/30 dev bb0
  ip -n "$prefix-gw1" link set bb0 up
  ip -n "$prefix-gw2" link set bb0 up
  ip -n "$prefix-gw1" route add 10.77.2.0/24 via 10.77.0.2
  ip -n "$prefix-gw2" route add 10.77.1.0/24 via 10.77.0.1
  shape_all
}

backbone_bytes() {
  tc -n "$prefix-gw1" -s qdisc show dev bb0 | awk '/Sent/ { print $2; exit }'
}

case "$command" in
  up) up ;;
  shape) shape_all ;;
  down) down ;;
  backbone-bytes) backbone_bytes ;;
  *) usage ;;
esac
