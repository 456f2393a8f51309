# The chart of bench/fig16.sh: mean makespan per k for all-at-once, GGP and OGGP (bars,
# min-max over the repeats as error bars), OGGP's predicted time and the lower bound.
#   gnuplot -e "csv='docs/bench/fig16.csv'; svg='docs/bench/fig16.svg'; queue='100'" bench/fig16.gp
set terminal svg size 720,420 dynamic font "sans,12"
set output svg
set datafile separator ","
set datafile columnheaders
if (!exists("queue")) queue = "100"
set title sprintf("Fig. 16 on namespaces: 10 x 10 nodes, D = 100 Mbit/s, d = D/k, queues of %s frames", queue)
set xlabel "k = floor(D/d)"
set ylabel "makespan (s)"
set yrange [0:*]
set key outside right top
set grid ytics
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set boxwidth 0.9
plot csv using 2:3:4:xtic(1) title "all-at-once (TCP)" lc rgb "#c0504d", \
     '' using 5:6:7 title "GGP" lc rgb "#9bbb59", \
     '' using 8:9:10 title "OGGP" lc rgb "#4f81bd", \
     '' using ($0+0.27):11 with points pt 7 ps 1 lc rgb "black" title "OGGP predicted", \
     '' using ($0):12 with points pt 2 ps 1.5 lc rgb "black" title "lower bound"
