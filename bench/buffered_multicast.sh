#!/usr/bin/env bash
# Runs the buffered multicast benchmark and draws its charts (SVG) with gnuplot.
#
#   bench/buffered_multicast.sh BUILD_DIR [--quick] [OUT_DIR]
#
# Writes OUT_DIR (default BUILD_DIR/bench-results)/buffered_multicast_{rounds,timing}.csv
# and buffered_multicast_{rounds,timing}.svg. Build the benchmark first:
#   cmake --build BUILD_DIR --target buffered_multicast_bench
set -euo pipefail

build=${1:?usage: bench/buffered_multicast.sh BUILD_DIR [--quick] [OUT_DIR]}
shift
quick=()
if [ "${1:-}" = "--quick" ]; then
  quick=(--quick)
  shift
fi
out=${1:-$build/bench-results}
here=$(cd "$(dirname "$0")" && pwd)

mkdir -p "$out"
"$build/bench/buffered_multicast_bench" rounds "${quick[@]}" > "$out/buffered_multicast_rounds.csv"
"$build/bench/buffered_multicast_bench" timing "${quick[@]}" > "$out/buffered_multicast_timing.csv"
gnuplot -e "rounds_csv='$out/buffered_multicast_rounds.csv'; timing_csv='$out/buffered_multicast_timing.csv'; out_dir='$out'" \
  "$here/buffered_multicast.gp"
echo "wrote $out/buffered_multicast_rounds.svg and $out/buffered_multicast_timing.svg"
