# The chart of bench/collectives.sh: measured makespan against array size, one panel per
# shape (rows: fig8, mix3) and kind (columns: reduce, allreduce, multicast), Baton's
# algorithms (the papers', two textbook ones and the default auto) beside Open MPI, and
# auto's plan prediction (dashed).
#   gnuplot -e "csv='docs/bench/collectives.csv'; svg='docs/bench/collectives.svg'; shapes='fig8 mix3'" bench/collectives.gp
# `shapes` lists the shapes the CSV holds, in its order (default both).
set terminal svg size 1200,760 dynamic font "sans,11"
set output svg
set datafile separator ","
set datafile missing "NaN"
set logscale xy
set format x "%.0s%cB"
set xlabel "array (bytes)"
set ylabel "makespan (s)"
set grid xtics ytics
set key top left font "sans,9"
if (!exists("shapes")) shapes = "fig8 mix3"
set multiplot layout words(shapes),3 title "Collectives on 12 namespace nodes: fig8 = 4 slow + 8 fast (root slow), mix3 = three speeds, slow1 = 1 slow + 11 fast"
kinds = "reduce allreduce multicast"
names1 = "snf snf-fnf wrp"
names2 = "bnb binomial binomial"
names3 = "binomial ring flat"
names4 = "auto auto auto"
do for [s = 1:words(shapes)] {
  do for [k = 1:3] {
    set title word(shapes, s) . " " . word(kinds, k)
    block = (s - 1) * 3 + k - 1
    plot csv index block using 1:2 with linespoints pt 7 lc rgb "#4f81bd" title word(names1, k), \
         '' index block using 1:3 with linespoints pt 5 lc rgb "#9bbb59" title word(names2, k), \
         '' index block using 1:4 with linespoints pt 9 lc rgb "#8064a2" title word(names3, k), \
         '' index block using 1:5 with linespoints pt 11 lc rgb "#f79646" title word(names4, k), \
         '' index block using 1:6 with linespoints pt 13 lc rgb "#c0504d" title "Open MPI", \
         '' index block using 1:7 with lines dt 2 lc rgb "#f79646" title "auto plan"
  }
}
unset multiplot
