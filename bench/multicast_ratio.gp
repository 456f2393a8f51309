# Competitive ratio per algorithm (clustered bars). Called by multicast_chart.sh with
#   gnuplot -e "data='ratio.dat'; output='x.svg'; title_text='...'" multicast_ratio.gp
set terminal svg size 1100,500 dynamic font "sans,11"
set output output
set title title_text
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel "completion time / lower bound"
set yrange [0:*]
set grid ytics
set key outside right top
set xtics rotate by 0
plot for [c=2:7] data using c:xtic(1) title columnheader(c)
