#!/usr/bin/env bash
# Draws bench/kpbs_optimality's output: cost/eta against k for GGP, OGGP and OGGP+ on the
# kpbs paper's Section 8 graphs (small and large weights; mean solid, max dashed), and
# cost/optimum against the number of edges on the small instances the exact solver
# finished (mean over k = 2..4).
#   bench/kpbs_optimality_chart.sh optimality.jsonl out.svg
set -euo pipefail
in=$1 out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$in" "$tmp" <<'PY'
import collections, json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"bench":"kpbs_optimality"')]
algorithms = ("ggp", "oggp", "oggp-plus")
for w in ("small", "large"):
    for a in algorithms:
        with open(f"{sys.argv[2]}/{w}-{a}.dat", "w") as f:
            for r in rows:
                if r["part"] == "section8" and r["weights"] == w and r["algorithm"] == a:
                    f.write(f'{r["k"]} {r["ratio_mean"]} {r["ratio_max"]}\n')
for a in algorithms:
    by_edges = collections.defaultdict(lambda: [0.0, 0])
    for r in rows:
        if r["part"] == "exact" and r["algorithm"] == a and r["optimal"] > 0:
            by_edges[r["edges"]][0] += r["ratio_to_optimum_mean"] * r["optimal"]
            by_edges[r["edges"]][1] += r["optimal"]
    with open(f"{sys.argv[2]}/exact-{a}.dat", "w") as f:
        for m in sorted(by_edges):
            f.write(f"{m} {by_edges[m][0] / by_edges[m][1]}\n")
PY
gnuplot <<GP
set terminal svg size 1500,450 dynamic font "sans,11"
set output "$out"
set multiplot layout 1,3
algorithms = "ggp oggp oggp-plus"
set grid
set key top left
set xlabel "k"
set ylabel "cost / eta"
do for [w in "small large"] {
  set title sprintf("%s weights (%s), 20x20 random graphs, beta = 1", w, w eq "small" ? "1..20" : "1..100000")
  plot for [i=1:3] sprintf("$tmp/%s-%s.dat", w, word(algorithms, i)) using 1:2 with linespoints lt i title word(algorithms, i)." mean", \
       for [i=1:3] sprintf("$tmp/%s-%s.dat", w, word(algorithms, i)) using 1:3 with lines lt i dashtype 2 title word(algorithms, i)." max"
}
set title "small instances solved exactly (weights 1..20, k = 2..4)"
set xlabel "edges"
set ylabel "cost / optimum (mean)"
plot for [i=1:3] sprintf("$tmp/exact-%s.dat", word(algorithms, i)) using 1:2 with linespoints lt i title word(algorithms, i)
unset multiplot
GP
echo "wrote $out"
