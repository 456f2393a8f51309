# Charts of the reduction benchmarks (run through bench/reduction.sh, which sets out_dir
# and leaves reduction_{quality,dp,search}.csv there).
#   quality: SNF and the binomial tree over the optimum, random clusters of 2 and 3 classes
#   dp:      look-ups of the three DP versions on the paper's grid beside Tables 2-4
#   search:  share of the search tree the guided and generic searches visit, beside Table 1
set datafile separator ","
set terminal svg size 1200,480 dynamic font "sans,11"
set grid

quality = out_dir."/reduction_quality.csv"
dp = out_dir."/reduction_dp.csv"
search = out_dir."/reduction_search.csv"

# The rows of `file` whose column a equals x (and column b equals y), header dropped.
rows(file, a, x) = sprintf("< awk -F, 'NR > 1 && $%d == \"%s\"' '%s'", a, x, file)
rows2(file, a, x, b, y) = sprintf("< awk -F, 'NR > 1 && $%d == \"%s\" && $%d == \"%s\"' '%s'", a, x, b, y, file)

# Quality columns: 1 classes, 2 speeds, 3 nodes, 4 trials, 5 solved, 6 snf mean, 7 snf max,
# 8 binomial mean, 9 binomial max, 10 share of clusters where SNF is optimal.
ratios = "1:1.25 1:1.50 1:1.75 1:2.00 1:3.00"
set output out_dir."/reduction_quality.svg"
set multiplot layout 1,2 title "Reduction makespan over the optimum on random clusters"
set logscale x 2
set xrange [7:300]
set xlabel "nodes (2^k and 2^k + 1)"
set ylabel "makespan / optimum"
set key top left
set title "two speed classes, times 1 and r (optimum: DP)"
plot for [i=1:5] rows2(quality, 1, "2", 2, word(ratios, i)) using 3:7 with points pt 7 ps 1.2 lc i \
       title "SNF worst, r = ".word(ratios, i)[3:], \
     for [i=1:5] rows2(quality, 1, "2", 2, word(ratios, i)) using 3:8 with points pt 6 lc i \
       title "binomial mean, r = ".word(ratios, i)[3:]
unset logscale x
set xrange [7:18]
set xlabel "nodes"
set title "three speed classes (optimum: guided branch and bound)"
plot rows(quality, 1, "3") using 3:6 with linespoints pt 7 lc 1 title "SNF mean", \
     rows(quality, 1, "3") using 3:7 with linespoints pt 5 lc 1 dt 2 title "SNF worst", \
     rows(quality, 1, "3") using 3:8 with linespoints pt 7 lc 2 title "binomial mean", \
     rows(quality, 1, "3") using 3:9 with linespoints pt 5 lc 2 dt 2 title "binomial worst"
unset multiplot
unset logscale
set autoscale x

# DP columns: 1 kind, 2 variant, 3 c_s, 4 f, 5 s, 6 lookups, 7 paper value (cell rows).
variants = "naive binary pruned"
set output out_dir."/reduction_dp.svg"
set multiplot layout 1,2 title "Two-class DP, c_s = 2: table look-ups for one cell (ours: points, paper: dashed)"
set logscale y
set key top left
set ylabel "look-ups for cell (f, s)"
set xlabel "f (fast nodes), s = 150"
set title "row s = 150"
plot for [i=1:3] "< awk -F, '$1 == \"cell\" && $5 == 150' ".dp using 4:(strcol(2) eq word(variants, i) ? $6 : 1/0) \
       with linespoints pt 7 lc i title word(variants, i), \
     for [i=1:3] "< awk -F, '$1 == \"cell\" && $5 == 150' ".dp using 4:(strcol(2) eq word(variants, i) && $7 > 0 ? $7 : 1/0) \
       with lines dt 2 lc i title "paper, ".word(variants, i)
set xlabel "s (slow nodes), f = 150"
set title "column f = 150"
plot for [i=1:3] "< awk -F, '$1 == \"cell\" && $4 == 150' ".dp using 5:(strcol(2) eq word(variants, i) ? $6 : 1/0) \
       with linespoints pt 7 lc i title word(variants, i), \
     for [i=1:3] "< awk -F, '$1 == \"cell\" && $4 == 150' ".dp using 5:(strcol(2) eq word(variants, i) && $7 > 0 ? $7 : 1/0) \
       with lines dt 2 lc i title "paper, ".word(variants, i)
unset multiplot

# Search columns: 1 senders, 3 tree nodes, 5 guided visited, 7 guided %, 8 guided s,
# 9 generic visited, 11 generic %, 12 generic s, 14 speed-up, 16 paper guided %,
# 17 paper generic %, 18 paper speed-up.
set output out_dir."/reduction_search.svg"
set multiplot layout 1,2 title "Branch and bound for an optimal reduction, three speed classes (Table 1)"
set xlabel "P (senders)"
set ylabel "visited / search-tree nodes (%)"
set key bottom left
set title "search ratio"
plot search using 1:7 every ::1 with linespoints pt 7 lc 1 title "guided", \
     search using 1:11 every ::1 with linespoints pt 7 lc 2 title "generic", \
     search using 1:16 every ::1 with lines dt 2 lc 1 title "paper, guided", \
     search using 1:17 every ::1 with lines dt 2 lc 2 title "paper, generic"
set ylabel "seconds per cluster"
set key top left
set title "search time (and generic / guided)"
set y2tics
set y2label "generic / guided time"
plot search using 1:8 every ::1 with linespoints pt 7 lc 1 title "guided", \
     search using 1:12 every ::1 with linespoints pt 7 lc 2 title "generic", \
     search using 1:14 every ::1 axes x1y2 with linespoints pt 5 lc 3 title "speed-up", \
     search using 1:18 every ::1 axes x1y2 with lines dt 2 lc 3 title "paper speed-up"
unset multiplot
