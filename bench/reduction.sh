#!/usr/bin/env bash
# Runs the reduction benchmarks and draws their charts (SVG) with gnuplot.
#
#   bench/reduction.sh BUILD_DIR [--quick] [OUT_DIR]
#
# Writes OUT_DIR (default BUILD_DIR/bench-results)/reduction_{quality,dp,search}.csv and
# reduction_{quality,dp,search}.svg. The full run takes a minute or two on an idle machine
# (--quick: seconds). Build the benchmarks first:
#   cmake --build BUILD_DIR --target reduction_quality reduction_dp reduction_search
set -euo pipefail

build=${1:?usage: bench/reduction.sh BUILD_DIR [--quick] [OUT_DIR]}
shift
quick=()
if [ "${1:-}" = "--quick" ]; then
  quick=(--quick)
  shift
fi
out=${1:-$build/bench-results}
here=$(cd "$(dirname "$0")" && pwd)

mkdir -p "$out"
for bench in quality dp search; do
  "$build/bench/reduction_$bench" "${quick[@]}" > "$out/reduction_$bench.csv"
done
gnuplot -e "out_dir='$out'" "$here/reduction.gp"
echo "wrote $out/reduction_quality.svg, $out/reduction_dp.svg and $out/reduction_search.svg"
