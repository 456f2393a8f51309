# Charts of bench/buffered_multicast_bench (run through bench/buffered_multicast.sh, which
# sets rounds_csv, timing_csv and out_dir).
#   rounds: Ordered-Coloring's rounds (random multicast instances, mean) against the bound
#           d·⌈d/l⌉ + l − 1, for l = 1, 2, d/2, d; and both procedures' rounds over the bound.
#   timing: planning time, and time per edge, against the number of messages (flat per-edge
#           time = linear time).
set datafile separator ","
set terminal svg size 1100,480 dynamic font "sans,11"
set grid

# The rows of `file` whose column a equals x and column b equals y, header dropped.
rows(file, a, x, b, y) = sprintf("< awk -F, 'NR > 1 && $%d == \"%s\" && $%d == \"%s\"' '%s'", a, x, b, y, file)

# Rounds CSV columns: 1 shape, 2 d_target, 3 d, 4 l_kind, 5 l, 6 instances, 7 mean_edges,
# 8 lower_bound, 9 bound, 10 coloring_bound, 11 coloring_mean, 12 coloring_max,
# 13 ordered_mean, 14 ordered_max, 15 ordered_max_over_bound.
kinds = "1 2 d/2 d"
set output out_dir."/buffered_multicast_rounds.svg"
set multiplot layout 1,2 title "Buffered multimessage multicasting, random multicast instances: rounds against the bound"
set logscale xy 2
set xlabel "degree d"
set ylabel "rounds"
set key bottom right
plot for [i=1:4] rows(rounds_csv, 1, "multicast", 4, word(kinds, i)) using 3:13 \
       with points pt 7 lc i title "ordered-coloring, l = ".word(kinds, i), \
     for [i=1:4] rows(rounds_csv, 1, "multicast", 4, word(kinds, i)) using 3:9 \
       with lines dt 2 lc i title "bound, l = ".word(kinds, i), \
     rows(rounds_csv, 1, "multicast", 4, "1") using 3:8 with lines lw 2 lc "black" title "lower bound d"
unset logscale y
set ylabel "mean rounds / bound"
set yrange [0.5:1.3]
set key bottom left
plot for [i=1:4] rows(rounds_csv, 1, "multicast", 4, word(kinds, i)) using 3:($13 / $9) \
       with linespoints pt 7 lc i title "ordered-coloring, l = ".word(kinds, i), \
     for [i=2:3] rows(rounds_csv, 1, "multicast", 4, word(kinds, i)) using 3:($11 / $9) \
       with linespoints dt 2 pt 6 lc i title "coloring, l = ".word(kinds, i)
unset multiplot
unset yrange

# Timing CSV columns: 1 messages, 2 processors, 3 edges, 4 d, 5 l, 6 algorithm,
# 7 plan_cpu_seconds, 8 plan_ns_per_edge, 9 validate_cpu_seconds, 10 rounds, 11 bound.
buffers = "1 4 16"
set output out_dir."/buffered_multicast_timing.svg"
set multiplot layout 1,2 title "Planning time (processor time; d = 16, about 4 destinations per message)"
set logscale xy 10
set xlabel "messages"
set ylabel "seconds"
set key top left
plot for [i=1:3] rows(timing_csv, 6, "ordered-coloring", 5, word(buffers, i)) using 1:7 \
       with linespoints pt 7 lc i title "ordered-coloring, l = ".word(buffers, i), \
     for [i=1:3] rows(timing_csv, 6, "coloring", 5, word(buffers, i)) using 1:7 \
       with linespoints dt 2 pt 6 lc i title "coloring, l = ".word(buffers, i), \
     rows(timing_csv, 6, "ordered-coloring", 5, "1") using 1:9 \
       with linespoints dt 3 pt 4 lc "black" title "validator (ordered-coloring, l = 1)"
unset logscale y
set ylabel "planning ns per edge"
set yrange [0:*]
set key bottom right
plot for [i=1:3] rows(timing_csv, 6, "ordered-coloring", 5, word(buffers, i)) using 1:8 \
       with linespoints pt 7 lc i title "ordered-coloring, l = ".word(buffers, i), \
     for [i=1:3] rows(timing_csv, 6, "coloring", 5, word(buffers, i)) using 1:8 \
       with linespoints dt 2 pt 6 lc i title "coloring, l = ".word(buffers, i)
unset multiplot
