#!/usr/bin/env bash
# Fig. 16 of the KPBS paper (Section 8.3) reproduced: two clusters of 10 nodes in network
# namespaces, node links shaped to d = D/k and the backbone to D (the paper: 100 Mbit/s
# switches, cards limited to 100/k Mbit/s), the same traffic (every pair's size uniform,
# seeded) moved by the real daemons with all-at-once (plain TCP, no schedule), GGP and
# OGGP, R times each in rotating order, for k = 3, 5 and 7. Every run's destination bytes
# are checked against the sources. Root only; docs/fig16.md has the results.
#
#   sudo bench/fig16.sh [--repeats R] [--min-mb A] [--max-mb B] [--seed S]
#                       [--backbone-mbit D] [--queue-packets Q] [--beta S] [--nodes N]
#                       [--bin BUILD_DIR] [--out DIR]
#
# Defaults: R = 3, N = 10 senders and 10 receivers (the paper's), sizes uniform in [1, 4] MB
# (10^6 bytes), seed 16, D = 100 Mbit/s, Q = 100, β = 0.01 s (the step start-up the jobs
# declare), BUILD_DIR = build/release (built like scripts/run.sh), DIR = docs/bench.
# About 25 s per run, 27 runs: ~15 minutes. Writes DIR/fig16.jsonl (one JSON line per
# run), DIR/fig16-summary.json and DIR/fig16.csv (bench/fig16_summary.py),
# DIR/fig16-coordinator.log (the coordinator logs of all runs), DIR/fig16.svg
# (bench/fig16.gp) and each run's whole report in DIR/reports/fig16-kK-ALGORITHM-R.json.
# Many small steps (issue 26): --min-mb 0.1 --max-mb 0.4 makes GGP's and OGGP's plans
# 30-90 steps of tens of milliseconds (at most about one per pair: 10 x 10 pairs give
# fewer than 100); --nodes 12 --min-mb 0.05 --max-mb 0.2 gives GGP 97-103 steps, all
# under 50 ms, and with --beta 0.002 130-140. Each line carries the steps' measured times
# and the gaps between them (the coordinator's release-to-release overhead beyond the step).
set -euo pipefail
cd "$(dirname "$0")/.."

repeats=3
min_mb=1
max_mb=4
seed=16
backbone_mbit=100
queue_packets=100
beta=0.01
nodes=10
bin=
out=docs/bench
extra_option() {
  case "$1" in
    --queue-packets) [[ "$2" =~ ^[1-9][0-9]*$ ]] || { echo "fig16.sh: --queue-packets must be a positive integer" >&2; exit 2; }
                     queue_packets=$2 ;;
    --beta) [[ "$2" =~ ^(0|[1-9][0-9]*)?(\.[0-9]+)?$ && "$2" =~ [0-9] ]] || { echo "fig16.sh: --beta must be seconds (e.g. 0.002)" >&2; exit 2; }
            beta=$2 ;;
    --nodes) [[ "$2" =~ ^[1-9][0-9]*$ && "$2" -ge 7 && "$2" -le 50 ]] || { echo "fig16.sh: --nodes must be an integer from 7 (k goes to 7) to 50" >&2; exit 2; }
             nodes=$2 ;;
    *) return 1 ;;
  esac
}
source bench/netns_bench.sh
netns_bench_setup fig16.sh "$@"

prefix=fig16
work=$(mktemp -d "${TMPDIR:-/tmp}/baton-fig16.XXXXXX")
cluster() { scripts/netns-cluster.sh "$@" --prefix "$prefix" --queue-packets "$queue_packets"; }
daemons() { scripts/netns-daemons.sh "$1" "$work" --prefix "$prefix" "${@:2}"; }
traffic() { python3 scripts/netns_traffic.py "$@"; }
# The coordinator's log of each k (it names every failed step attempt) is kept.
keep_log() { [ ! -f "$work/coordinator.log" ] || cat "$work/coordinator.log" >> "$out/fig16-coordinator.log" || true; }
cleanup() {
  keep_log
  daemons stop || true
  cluster down || true
  rm -rf "$work"
}
trap cleanup EXIT

# TCP segments retransmitted by all senders so far (each namespace has its own counters).
retransmits() {
  local total=0 i n
  for i in $(seq "$nodes"); do
    n=$(ip netns exec "$prefix-s$i" awk '/^Tcp:/ { if (seen) print $13; seen = 1 }' /proc/net/snmp)
    total=$((total + n))
  done
  echo "$total"
}

mkdir -p "$out"
results=$out/fig16.jsonl
: > "$results"
: > "$out/fig16-coordinator.log"
backbone_bytes=$(awk -v m="$backbone_mbit" 'BEGIN { printf "%d", m * 1000000 / 8 }')
algorithms=(all-at-once ggp oggp)
cluster up "$nodes" "$nodes" --node-rate "$backbone_mbit" --backbone-rate "$backbone_mbit"
traffic make "$work" --senders "$nodes" --receivers "$nodes" --min-mb "$min_mb" --max-mb "$max_mb" --seed "$seed"
for k in 3 5 7; do
  # d = D/k in whole bytes/s, and the backbone exactly k x d.
  node_bytes=$((backbone_bytes / k))
  cluster shape --node-rate "$(mbit $node_bytes)" --backbone-rate "$(mbit $((k * node_bytes)))"
  # Plain TCP never gives up on a live connection; in retransmission back-off (RTO up to
  # 120 s on Linux) a flow of the unscheduled baseline can move nothing for tens of
  # seconds and still finish. 150 s of silence keeps our own timeout out of its way.
  keep_log
  daemons start --bin "$bin" --rate $((node_bytes * 1448 / 1514)) --silence 150
  for repeat in $(seq "$repeats"); do
    for a in 0 1 2; do
      algo=${algorithms[$(((a + repeat - 1) % 3))]}
      traffic clear "$work"
      traffic job "$work" --algo "$algo" --node-rate $node_bytes --backbone-rate $((k * node_bytes)) --beta "$beta" \
        > "$work/job.json"
      sync
      before=$(retransmits)
      id=$(daemons ctl -- submit "$work/job.json")
      daemons ctl -- watch "$id" > "$work/watch.log" 2>&1 || { cat "$work/watch.log" >&2; exit 1; }
      daemons ctl -- status "$id" -o json > "$work/run.json"
      after=$(retransmits)
      # The whole report, kept for reading each step's and node's planned against measured times.
      mkdir -p "$out/reports" && cp "$work/run.json" "$out/reports/fig16-k$k-$algo-$repeat.json"
      traffic verify "$work" >&2
      python3 - "$work/run.json" "$k" "$algo" "$repeat" "$node_bytes" "$((after - before))" "$beta" >> "$results" <<'PY'
import json, os, sys
job = json.load(open(sys.argv[1]))
k, algo, repeat, node_bytes, retrans = int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
r = job["report"]
assert job["state"] == "done" and r["k"] == k, (job["state"], r["k"], k)
steps = r["steps"]
# From one step's end to the next one's start: what the coordinator and agents add per step.
gaps = [b["started_seconds"] - a["started_seconds"] - a["measured_seconds"] for a, b in zip(steps, steps[1:])]
def median(xs):
    xs = sorted(xs)
    return (xs[(len(xs) - 1) // 2] + xs[len(xs) // 2]) / 2 if xs else None
print(json.dumps({"k": k, "algorithm": algo, "repeat": repeat, "measured_seconds": r["measured_seconds"],
                  "predicted_seconds": r["predicted_seconds"], "lower_bound_seconds": r["lower_bound_seconds"],
                  "steps": len(r["steps"]), "attempts": sum(s.get("attempts", 1) for s in r["steps"]),
                  "bytes": sum(s["bytes"] for s in r["steps"]),
                  "node_rate": node_bytes, "backbone_rate": k * node_bytes, "flow_rate": r["flow_rate"],
                  "tcp_retransmits": retrans, "load1": os.getloadavg()[0],
                  "step_seconds_median": median([x["measured_seconds"] for x in steps]),
                  "step_seconds_max": max(x["measured_seconds"] for x in steps),
                  "step_gap_seconds_median": median(gaps), "beta": float(sys.argv[7]),
                  # one step (all-at-once): when each node finished it, to tell the bulk from stragglers
                  "node_seconds": sorted(n["seconds"] for n in r["steps"][0]["nodes"].values())
                                  if len(r["steps"]) == 1 else None}))
PY
      tail -n 1 "$results"
    done
  done
done
python3 bench/fig16_summary.py "$results" --json "$out/fig16-summary.json" --csv "$out/fig16.csv"
gnuplot -e "csv='$out/fig16.csv'; svg='$out/fig16.svg'; queue='$queue_packets'" bench/fig16.gp
echo "fig16.sh: results in $results, $out/fig16-summary.json, $out/fig16.csv, chart $out/fig16.svg"
