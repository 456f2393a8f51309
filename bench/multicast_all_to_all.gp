# All-to-all competitive ratio against nodes, one line per algorithm. Called by
# multicast_chart.sh with gnuplot -e "data='a2a.dat'; output='x.svg'" multicast_all_to_all.gp
set terminal svg size 900,500 dynamic font "sans,11"
set output output
set title "All-to-all broadcast, slow network (155 Mbit/s), large messages"
set xlabel "nodes"
set ylabel "completion time / lower bound"
set logscale y
set autoscale xfix
set grid
set key outside right top
plot for [c=2:12] data using 1:c with linespoints title columnheader(c)
