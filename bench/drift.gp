# The chart of bench/drift.sh: mean makespan of the job that keeps its k = 5 plan, the one
# that re-plans on drift and the one planned right from the start, when the backbone is
# reshaped halfway (bars, min-max over the repeats as error bars).
#   gnuplot -e "csv='docs/bench/drift.csv'; svg='docs/bench/drift.svg'" bench/drift.gp
set terminal svg size 720,420 dynamic font "sans,12"
set output svg
set datafile separator ","
set datafile columnheaders
set title "Drift on namespaces: 10 x 10 nodes planned for k = 5, backbone reshaped halfway"
set ylabel "makespan (s)"
set yrange [0:*]
set key outside right top
set grid ytics
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set boxwidth 0.9
plot csv using 2:3:4:xtic(1) title "keeps its plan" lc rgb "#c0504d", \
     '' using 5:6:7 title "re-plans on drift" lc rgb "#4f81bd", \
     '' using 8:9:10 title "right k from the start" lc rgb "#9bbb59"
