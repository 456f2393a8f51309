#!/usr/bin/env bash
# Draws bench/kpbs_quality's output as the paper's Figs. 11-15: evaluation ratio cost/eta
# against k, average (solid) and maximum (dashed), small and large weights side by side.
#   bench/kpbs_quality_chart.sh quality.jsonl out.svg
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
gnuplot <<GP
set terminal svg size 1100,450 dynamic font "sans,11"
set output "$out"
set multiplot layout 1,2
set xlabel "k"
set ylabel "cost / eta"
set key top left
set grid
do for [w in "small large"] {
  set title sprintf("%s weights (%s), 20x20 random graphs, beta = 1", w, w eq "small" ? "1..20" : "1..100000")
  plot for [a in "ggp oggp h-weight h-degree"] sprintf("$tmp/%s-%s.dat", w, a) using 1:2 with linespoints title a." mean", \
       for [a in "ggp oggp h-weight h-degree"] sprintf("$tmp/%s-%s.dat", w, a) using 1:3 with lines dashtype 2 title a." max"
}
unset multiplot
GP
echo "wrote $out"
