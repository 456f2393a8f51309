#!/usr/bin/env bash
# Draws bench/kpbs_quality's output as the paper's Figs. 11-15: evaluation ratio cost/eta
# against k, average (solid) and maximum (dashed), small and large weights side by side.
#   bench/kpbs_quality_chart.sh quality.jsonl out.svg   (or out.png)
set -euo pipefail
in=$1 out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$in" "$tmp" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"bench":"kpbs_quality"')]
for w in ("small", "large"):
    for a in ("ggp", "oggp", "h-weight", "h-degree"):
        with open(f"{sys.argv[2]}/{w}-{a}.dat", "w") as f:
            for r in rows:
                if r["weights"] == w and r["algorithm"] == a:
                    f.write(f'{r["k"]} {r["ratio_mean"]} {r["ratio_max"]}\n')
PY
case "$out" in
  *.png) terminal='pngcairo size 1400,560 font "sans,11"' ;;
  *) terminal='svg size 1100,450 dynamic font "sans,11"' ;;
esac
gnuplot <<GP
set terminal $terminal
set output "$out"
set multiplot layout 1,2
set xlabel "k"
set ylabel "cost / eta"
set key top left
set grid
do for [w in "small large"] {
  set title sprintf("%s weights (%s), 20x20 random graphs, beta = 1", w, w eq "small" ? "1..20" : "1..100000")
  algos = "ggp oggp h-weight h-degree"
  plot for [i=1:4] sprintf("$tmp/%s-%s.dat", w, word(algos, i)) using 1:2 with linespoints lc i title word(algos, i)." mean", \
       for [i=1:4] sprintf("$tmp/%s-%s.dat", w, word(algos, i)) using 1:3 with lines lc i dashtype 2 title word(algos, i)." max"
}
unset multiplot
GP
echo "wrote $out"
