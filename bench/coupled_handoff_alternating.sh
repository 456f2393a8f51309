#!/usr/bin/env bash
# The coupled handoff with one of its switches off and on, side by side: ROUNDS rounds,
# each running bench/coupled_handoff.sh once with VARIABLE=off and once with VARIABLE=on
# (the order alternating from round to round), both beside their own MPI_Alltoallv. Every
# line is prefixed with the commit, the UTC time and the round; the runs' own messages go
# to stderr. VARIABLE is BATON_SAME_HOST_MEMORY (docs/transport.md, "Same-host peers") or
# BATON_KEEP_PLANS (docs/embedding.md, "Persistent handoffs").
#
#   bench/coupled_handoff_alternating.sh VARIABLE [BUILD_DIR] [ROUNDS] [MIB...]   (defaults: build/ci 2 1 64)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
variable=${1:-}
case "$variable" in
  BATON_SAME_HOST_MEMORY | BATON_KEEP_PLANS) ;;
  *) echo "coupled_handoff_alternating.sh: VARIABLE must be BATON_SAME_HOST_MEMORY or BATON_KEEP_PLANS, not '$variable'" >&2; exit 2 ;;
esac
build=${2:-$here/../build/ci}
rounds=${3:-2}
shift 3 || shift $#
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 64)
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "coupled_handoff_alternating.sh: ROUNDS must be a positive integer, not '$rounds'" >&2; exit 2; }
export BATON_REPETITIONS=${BATON_REPETITIONS:-5}
commit=$(git -C "$here" rev-parse --short HEAD)
echo -e "commit\tutc\tround\tmethod\tmib\trows\tcols\tblock\trepetitions\tmedian_s\tbest_s\tworst_s\tbound_s"
for round in $(seq 1 "$rounds"); do
  order=(off on)
  [ $((round % 2)) -eq 1 ] || order=(on off)
  for value in "${order[@]}"; do
    utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    if ! env "$variable=$value" "$here/coupled_handoff.sh" "$build" "${sizes[@]}" |
      awk -v c="$commit" -v t="$utc" -v r="$round" 'NR > 1 { print c "\t" t "\t" r "\t" $0 }'; then
      echo -e "$commit\t$utc\t$round\t# the run with $variable=$value failed"
    fi
  done
done
