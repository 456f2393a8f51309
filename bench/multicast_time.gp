# Scheduling time against nodes (all-to-all, log-log), one line per algorithm: the slope
# is the exponent the benchmark fits. Called by multicast_chart.sh with
#   gnuplot -e "data='time.dat'; output='x.svg'" multicast_time.gp
set terminal svg size 900,500 dynamic font "sans,11"
set output output
set title "Scheduling time, all-to-all broadcast (CPU time per schedule)"
set xlabel "nodes"
set ylabel "microseconds"
set logscale xy
set autoscale xfix
set grid
set key outside right top
plot for [c=2:12] data using 1:c with linespoints title columnheader(c)
