#!/usr/bin/env bash
# The coupled handoff with two builds side by side (a change's before and after): ROUNDS
# rounds, each running bench/coupled_handoff.sh once with BEFORE's binaries and once with
# AFTER's (the order alternating from round to round), both beside their own
# MPI_Alltoallv. Every line is prefixed with this tree's commit, the UTC time, the round
# and the build's commit (git -C on the build's source tree); the runs' own messages go to
# stderr. The environment passes through (BATON_ALGORITHM, BATON_KEEP_PLANS,
# BATON_REPETITIONS: 7 by default here). BENCH=coupled_handoff_star.sh runs the star of
# unequal links instead (root; its own ALGORITHM and REPETITIONS, 7 by default here).
#
#   bench/coupled_handoff_builds.sh BEFORE_BUILD AFTER_BUILD [ROUNDS] [MIB...]   (defaults: 3 rounds, 1 MiB)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 2 ] || { echo "usage: coupled_handoff_builds.sh BEFORE_BUILD AFTER_BUILD [ROUNDS] [MIB...]" >&2; exit 2; }
builds=("$1" "$2")
for b in "${builds[@]}"; do
  [ -f "$b/CMakeCache.txt" ] || { echo "coupled_handoff_builds.sh: $b is not a build directory (no CMakeCache.txt)" >&2; exit 2; }
done
rounds=${3:-3}
shift 3 || shift $#
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1)
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "coupled_handoff_builds.sh: ROUNDS must be a positive integer, not '$rounds'" >&2; exit 2; }
export BATON_REPETITIONS=${BATON_REPETITIONS:-7} REPETITIONS=${REPETITIONS:-7}
bench=${BENCH:-coupled_handoff.sh}
case "$bench" in
  coupled_handoff.sh | coupled_handoff_star.sh) ;;
  *) echo "coupled_handoff_builds.sh: BENCH must be coupled_handoff.sh or coupled_handoff_star.sh, not '$bench'" >&2; exit 2 ;;
esac
commit=$(git -C "$here" rev-parse --short HEAD)
source_commit() { git -C "$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$1/CMakeCache.txt")" rev-parse --short HEAD; }
echo -e "commit\tutc\tround\tbuild\tbinaries_commit\tmethod\tmib\trows\tcols\tblock\trepetitions\tmedian_s\tbest_s\tworst_s\tbound_s"
for round in $(seq 1 "$rounds"); do
  order=(0 1)
  [ $((round % 2)) -eq 1 ] || order=(1 0)
  for i in "${order[@]}"; do
    label=$([ "$i" -eq 0 ] && echo before || echo after)
    build=${builds[$i]}
    utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    binaries=$(source_commit "$build")
    if ! "$here/$bench" "$build" "${sizes[@]}" |
      awk -v c="$commit" -v t="$utc" -v r="$round" -v l="$label" -v b="$binaries" \
        '!/^(#|method\t)/ { print c "\t" t "\t" r "\t" l "\t" b "\t" $0 }'; then
      echo -e "$commit\t$utc\t$round\t$label\t$binaries\t# the run failed"
    fi
  done
done
