#!/usr/bin/env bash
# Draws the multicast benchmark's charts as SVG with gnuplot.
#
#   build/bench/multicast_bench [--quick] > multicast.jsonl
#   bench/multicast_chart.sh multicast.jsonl OUT_DIR
#
# OUT_DIR/multicast_ratio.svg          competitive ratio per algorithm, multiple multicast on
#                                      the most nodes and sources measured (Figures 11-12)
# OUT_DIR/multicast_all_to_all.svg     all-to-all competitive ratio against nodes, slow
#                                      network, large messages (Figure 8(c)-(d))
# OUT_DIR/multicast_scheduling_time.svg  CPU time per schedule against nodes, all-to-all,
#                                      log-log (Table 1)
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 RESULTS.jsonl OUT_DIR" >&2
  exit 2
fi
results=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# field(line, key): the value of "key" in one flat JSON line, quotes removed.
read -r -d '' AWK_FIELD <<'AWK' || true
function field(line, key,   re, value) {
  re = "\"" key "\":(\"[^\"]*\"|[^,}]*)"
  if (!match(line, re)) return ""
  value = substr(line, RSTART + length(key) + 3, RLENGTH - length(key) - 3)
  gsub(/"/, "", value)
  return value
}
AWK

# Multiple multicast at the largest node and source counts: one row per algorithm, one
# column per (network, messages).
awk "$AWK_FIELD"'
  field($0, "experiment") == "multiple" {
    n = field($0, "nodes") + 0; s = field($0, "sources") + 0
    if (n > maxn || (n == maxn && s > maxs)) { maxn = n; maxs = s }
    lines[++count] = $0
  }
  END {
    ncols = split("fast-small fast-large fast-mixed slow-small slow-large slow-mixed", cols, " ")
    for (i = 1; i <= count; ++i) {
      l = lines[i]
      if (field(l, "nodes") + 0 != maxn || field(l, "sources") + 0 != maxs) continue
      a = field(l, "algorithm")
      if (!(a in seen)) { seen[a] = 1; order[++na] = a }
      ratio[a, field(l, "network") "-" field(l, "messages")] = field(l, "ratio_mean")
    }
    printf "algorithm"; for (c = 1; c <= ncols; ++c) printf " %s", cols[c]; printf "\n"
    for (i = 1; i <= na; ++i) {
      printf "%s", order[i]
      for (c = 1; c <= ncols; ++c) printf " %s", ratio[order[i], cols[c]]
      printf "\n"
    }
    printf "%d %d\n", maxn, maxs > "/dev/stderr"
  }' "$results" > "$work/ratio.dat" 2> "$work/ratio.size"
read -r ratio_nodes ratio_sources < "$work/ratio.size"

# table(experiment, value, filter): rows = nodes, columns = algorithms.
table() {
  awk -v experiment="$1" -v value="$2" -v filter="$3" "$AWK_FIELD"'
    field($0, "experiment") == experiment && index($0, filter) {
      n = field($0, "nodes") + 0; a = field($0, "algorithm")
      if (!(a in seen)) { seen[a] = 1; order[++na] = a }
      if (!(n in seen_n)) { seen_n[n] = 1; nodes[++nn] = n }
      v[n, a] = field($0, value)
    }
    END {
      printf "nodes"; for (i = 1; i <= na; ++i) printf " %s", order[i]; printf "\n"
      for (j = 1; j <= nn; ++j) {
        printf "%d", nodes[j]; for (i = 1; i <= na; ++i) printf " %s", v[nodes[j], order[i]]; printf "\n"
      }
    }' "$results"
}
table all-to-all ratio_mean '"network":"slow","messages":"large"' > "$work/a2a.dat"
table scheduling-time microseconds '"pattern":"all-to-all"' > "$work/time.dat"

gnuplot -e "data='$work/ratio.dat'; output='$out/multicast_ratio.svg'; title_text='Multiple multicast, $ratio_nodes nodes, $ratio_sources sources: completion / lower bound'" \
  "$here/multicast_ratio.gp"
gnuplot -e "data='$work/a2a.dat'; output='$out/multicast_all_to_all.svg'" "$here/multicast_all_to_all.gp"
gnuplot -e "data='$work/time.dat'; output='$out/multicast_scheduling_time.svg'" "$here/multicast_time.gp"
echo "wrote $out/multicast_ratio.svg $out/multicast_all_to_all.svg $out/multicast_scheduling_time.svg"
