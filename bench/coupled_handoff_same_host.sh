#!/usr/bin/env bash
# The coupled handoff on one host with peers over the network and through shared memory,
# side by side: ROUNDS rounds, each running bench/coupled_handoff.sh once with
# BATON_SAME_HOST_MEMORY=off and once with on (the order alternating from round to round),
# both beside their own MPI_Alltoallv. Every line is prefixed with the commit, the UTC time
# and the round (docs/transport.md, "Same-host peers"); the runs' own messages go to stderr.
#
#   bench/coupled_handoff_same_host.sh [BUILD_DIR] [ROUNDS] [MIB...]   (defaults: build/ci 2 1 64)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/ci}
rounds=${2:-2}
shift 2 || shift $#
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 64)
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "coupled_handoff_same_host.sh: ROUNDS must be a positive integer, not '$rounds'" >&2; exit 2; }
export BATON_REPETITIONS=${BATON_REPETITIONS:-5}
commit=$(git -C "$here" rev-parse --short HEAD)
echo -e "commit\tutc\tround\tmethod\tmib\trows\tcols\tblock\trepetitions\tmedian_s\tbest_s\tworst_s\tbound_s"
for round in $(seq 1 "$rounds"); do
  order=(off on)
  [ $((round % 2)) -eq 1 ] || order=(on off)
  for memory in "${order[@]}"; do
    utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    if ! BATON_SAME_HOST_MEMORY=$memory "$here/coupled_handoff.sh" "$build" "${sizes[@]}" |
      awk -v c="$commit" -v t="$utc" -v r="$round" 'NR > 1 { print c "\t" t "\t" r "\t" $0 }'; then
      echo -e "$commit\t$utc\t$round\t# the run with BATON_SAME_HOST_MEMORY=$memory failed"
    fi
  done
done
