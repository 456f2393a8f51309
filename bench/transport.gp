# Charts of bench/transport_bench.sh (which passes data, pacing and outdir).
#   gnuplot -e "data='bench/results/transport_throughput.dat'; pacing='bench/results/transport_pacing.dat'; outdir='bench/results'" bench/transport.gp
set terminal svg size 760,440 dynamic font "sans,11"

set output outdir.'/transport_throughput.svg'
set title 'Loopback throughput, same run (higher is better)'
set ylabel 'Gbit/s'
set xlabel 'concurrent flows'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key top left
set grid ytics
set yrange [0:*]
plot data using 2:xtic(1) title 'iperf3', '' using 5 title 'iperf3 -l 1M', '' using 6 title 'Baton TCP, unsealed', '' using 3 title 'Baton TCP', '' using 4 title 'Baton fabric (tcp;ofi\_rxm)'

set output outdir.'/transport_pacing.svg'
set title 'Pacing: worst deviation over one-second windows (target ±2 %)'
set style data linespoints
set logscale x
set xlabel 'paced rate (MB/s)'
set ylabel 'worst |window rate − rate| / rate (%)'
set yrange [0:*]
set key off
f(x) = 2
plot pacing using 1:2 with linespoints pt 7 lw 2, f(x) with lines dt 2 lc rgb 'red'
