#!/usr/bin/env bash
# Runs every transport benchmark in one go and draws the charts with gnuplot.
#   bench/transport_bench.sh [--quick] [--build DIR] [--out DIR]
# DIR defaults: build/ci (configure and build it first, e.g. scripts/test.sh --fast) and
# bench/results. Writes OUT/transport.jsonl (one JSON object per line, as the benchmarks
# print them), OUT/transport_throughput.dat, OUT/transport_pacing.dat and the charts
# OUT/transport_throughput.svg and OUT/transport_pacing.svg.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=()
build=build/ci
out=bench/results
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=(--quick) ;;
    --build) build="$2"; shift ;;
    --out) out="$2"; shift ;;
    *) echo "transport_bench.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
for b in transport_throughput transport_pacing transport_memory; do
  [ -x "$build/bench/$b" ] || { echo "transport_bench.sh: $build/bench/$b not built" >&2; exit 2; }
done
mkdir -p "$out"
results="$out/transport.jsonl"
: > "$results"

"$build/bench/transport_throughput" "${quick[@]}" | tee -a "$results"
"$build/bench/transport_pacing" "${quick[@]}" | tee -a "$results"
for transport in tcp "fabric/tcp;ofi_rxm"; do
  "$build/bench/transport_memory" "${quick[@]}" --transport "$transport" | tee -a "$results" || true
done

# field NAME LINE: the value of a flat JSON field (numbers, strings, booleans).
extract='function field(name, line,   m) {
  if (match(line, "\"" name "\":\"[^\"]*\"")) { m = substr(line, RSTART, RLENGTH); sub("^\"" name "\":\"", "", m); sub("\"$", "", m); return m }
  if (match(line, "\"" name "\":[^,}]*")) { m = substr(line, RSTART, RLENGTH); sub("^\"" name "\":", "", m); return m }
  return ""
}'
awk "$extract"'
  /"bench":"throughput"/ && /gbit_per_s/ {
    t = field("transport", $0); f = field("flows", $0); rate[f, t] = field("gbit_per_s", $0); flows[f] = 1
  }
  END {
    print "# flows iperf3 tcp fabric/tcp;ofi_rxm iperf3-l1048576 tcp-unsealed (Gbit/s)"
    n = split("1 4 16", order, " ")
    for (i = 1; i <= n; i++) {
      f = order[i]; if (!(f in flows)) continue
      printf "%s %s %s %s %s %s\n", f, ((f, "iperf3") in rate ? rate[f, "iperf3"] : "NaN"), ((f, "tcp") in rate ? rate[f, "tcp"] : "NaN"),
             ((f, "fabric/tcp;ofi_rxm") in rate ? rate[f, "fabric/tcp;ofi_rxm"] : "NaN"),
             ((f, "iperf3-l1048576") in rate ? rate[f, "iperf3-l1048576"] : "NaN"),
             ((f, "tcp-unsealed") in rate ? rate[f, "tcp-unsealed"] : "NaN")
    }
  }' "$results" > "$out/transport_throughput.dat"
awk "$extract"'
  /"bench":"pacing"/ && /worst_error/ { printf "%s %s\n", field("rate", $0) / 1e6, field("worst_error", $0) * 100 }
' "$results" > "$out/transport_pacing.dat"

gnuplot -e "data='$out/transport_throughput.dat'; pacing='$out/transport_pacing.dat'; outdir='$out'" bench/transport.gp
echo "transport_bench.sh: results in $results, charts in $out/transport_throughput.svg and $out/transport_pacing.svg"
