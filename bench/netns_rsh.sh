#!/usr/bin/env bash
# mpirun's remote shell on a namespace cluster (scripts/netns-star.sh): runs the command
# mpirun gives for host 10.78.0.(i+1) in namespace PREFIX-n<i>, in a UTS namespace of its
# own named after it, so that Open MPI sees one host per node instead of one machine.
#   mpirun --mca plm_rsh_agent bench/netns_rsh.sh ...   (BATON_NETNS_PREFIX, default bstar)
set -euo pipefail
host=$1
shift
prefix=${BATON_NETNS_PREFIX:-bstar}
[[ "$host" =~ ^10\.78\.0\.([0-9]+)$ ]] || { echo "netns_rsh.sh: '$host' is not a node of the star (10.78.0.N)" >&2; exit 2; }
ns="$prefix-n$((BASH_REMATCH[1] - 1))"
exec ip netns exec "$ns" unshare --uts sh -c 'hostname "$0" && exec sh -c "$1"' "$ns" "$*"
