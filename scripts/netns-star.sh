#!/usr/bin/env bash
# Nodes of unequal link rates on one switch, each in its own network namespace, every link
# shaped with tc in both directions: a heterogeneous cluster on one machine for the
# collectives' tests and benchmarks (docs/collectives.md). Root only.
#
#   scripts/netns-star.sh up --rates MBIT,MBIT,... [--prefix P] [--queue-packets Q]
#   scripts/netns-star.sh shape --rates MBIT,MBIT,... [--prefix P] [--queue-packets Q]
#   scripts/netns-star.sh down [--prefix P]
#
# Topology (P = prefix, default "bstar"):
#   P-n0..P-n{N-1}  the nodes, eth0 = 10.78.0.(i+1)/24; node i's link runs at the i-th rate
#   P-sw            the switch: bridge br0 (10.78.0.254) with one port per node; the
#                   coordinator and mpirun run here, on unshaped control traffic
# Each node link is a veth pair with a tbf on the node's eth0 (what it sends) and one on
# the switch port (what it receives), each holding at most Q full frames (default 100, a
# switch port's buffer). `up` removes leftovers of the same prefix first; `down` kills what
# still runs in the namespaces and deletes them, and is a no-op when there is nothing.
set -euo pipefail

usage() {
  sed -n '6,8p' "$0" | sed 's/^#  */usage: /' >&2
  exit 2
}

die() { echo "netns-star.sh: $*" >&2; exit 1; }

command=${1:-}
[ -n "$command" ] || usage
shift
prefix=bstar
queue_packets=100
rates=
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=$2; shift ;;
    --rates) rates=$2; shift ;;
    --queue-packets) queue_packets=$2; shift ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
source "$(dirname "$0")/netns-lib.sh"
check_prefix_and_queue

our_namespaces() {
  ip netns list | awk '{print $1}' | grep -E "^${prefix}-(n[0-9]+|sw)\$" || true
}

# The --rates list as whole bytes/s, one per line.
rate_bytes() {
  [ -n "$rates" ] || die "give --rates MBIT,MBIT,... (one per node)"
  local r
  IFS=, read -ra list <<<"$rates"
  [ ${#list[@]} -ge 2 ] && [ ${#list[@]} -le 200 ] || die "--rates must list 2..200 nodes (got ${#list[@]})"
  for r in "${list[@]}"; do
    [[ "$r" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--rates: '$r' is not a number of Mbit/s"
    awk -v m="$r" 'BEGIN { b = int(m * 1000000 / 8 + 0.5); if (b <= 0) exit 1; print b }' ||
      die "--rates: '$r' must be > 0"
  done
}

shape_all() {
  local i=0 bytes list
  local -a all
  list=$(rate_bytes) || exit
  mapfile -t all <<<"$list"
  [ "$(our_namespaces | grep -c -- "-n[0-9]")" -eq ${#all[@]} ] ||
    die "the star '$prefix' does not have ${#all[@]} nodes (run 'up' with the same --rates)"
  for bytes in "${all[@]}"; do
    shape_link "$prefix-n$i" eth0 "$bytes"
    shape_link "$prefix-sw" "n$i" "$bytes"
    i=$((i + 1))
  done
  echo "netns-star.sh: $prefix: ${#all[@]} nodes, link rates (B/s) ${all[*]}"
}

up() {
  local list
  local -a all
  list=$(rate_bytes) || exit
  mapfile -t all <<<"$list"
  down
  trap 'status=$?; [ $status -eq 0 ] || { echo "netns-star.sh: up failed, removing what it made" >&2; down; }' EXIT
  local i
  make_switch "$prefix-sw" 10.78.0.254
  for i in $(seq 0 $((${#all[@]} - 1))); do
    attach_node "$prefix-n$i" "$prefix-sw" "n$i" "10.78.0.$((i + 1))"
  done
  shape_all
}

case "$command" in
  up) up ;;
  shape) shape_all ;;
  down) down ;;
  *) usage ;;
esac
