#!/usr/bin/env bash
# Re-planning when the network drifts (docs/calibration.md): the Fig. 16 namespace cluster
# (10 x 10 nodes, docs/fig16.md) shaped for k = 5, calibrated, and one OGGP job planned on
# that calibration. When half its bytes are done the backbone is reshaped with tc to D/2
# (scenario "half") or 2D (scenario "double"). Side by side, in rotating order:
#   keep    the job keeps its plan ("replan": false)
#   replan  the job re-plans on drift ("replan": true)
#   right   planned from the start with the right k: the first half of every pair's bytes
#           on the k = 5 calibration, then (backbone reshaped, calibrated again, not timed)
#           the second half on the new calibration; its time is the two jobs' sum
# Every run's destination bytes are checked against the sources. Root only.
#
#   sudo bench/drift.sh [--repeats R] [--min-mb A] [--max-mb B] [--seed S]
#                       [--backbone-mbit D] [--bin BUILD_DIR] [--out DIR]
#
# Defaults: R = 2, sizes uniform in [1, 4] MB (10^6 bytes), seed 16, D = 100 Mbit/s,
# BUILD_DIR = build/release (built like scripts/run.sh), DIR = docs/bench. About 25 s per
# job: ~7 minutes with R = 2. Writes DIR/drift.jsonl (one JSON line per run),
# DIR/drift-summary.json and DIR/drift.csv (bench/drift_summary.py), DIR/drift.svg
# (bench/drift.gp) and DIR/drift-coordinator.log.
set -euo pipefail
cd "$(dirname "$0")/.."

repeats=2
min_mb=1
max_mb=4
seed=16
backbone_mbit=100
bin=
out=docs/bench
source bench/netns_bench.sh
netns_bench_setup drift.sh "$@"

k=5
prefix=drift
work=$(mktemp -d /tmp/baton-drift.XXXXXX)
cluster() { scripts/netns-cluster.sh "$@" --prefix "$prefix"; }
daemons() { scripts/netns-daemons.sh "$1" "$work" --prefix "$prefix" "${@:2}"; }
traffic() { python3 scripts/netns_traffic.py "$@"; }
json() { python3 -c "import json, sys; print(json.load(open(sys.argv[1]))$2)" "$1"; }
cleanup() {
  [ ! -f "$work/coordinator.log" ] || cp "$work/coordinator.log" "$out/drift-coordinator.log" || true
  daemons stop || true
  cluster down || true
  rm -rf "$work"
}
trap cleanup EXIT

backbone_bytes=$((backbone_mbit * 1000000 / 8))
node_bytes=$((backbone_bytes / k))
shape() { cluster shape --node-rate "$(mbit $node_bytes)" --backbone-rate "$(mbit "$1")"; }
group() { seq -s, -f "$1%g" 1 10; }
calibrate() {
  daemons ctl -- calibrate --senders "$(group s)" --receivers "$(group r)" -o json > "$work/calibration.json"
  cp "$work/calibration.json" "$work/calibration-$1.json"
  json "$work/calibration.json" '["id"]'
}
# Submits WORK/job.json, reshapes the backbone to $1 bytes/s once half the job's bytes are
# done (none: never), waits for the end; the job's status in WORK/run.json, the fraction of
# bytes done at the reshape on stdout.
run_job() {
  local id fraction=none
  id=$(daemons ctl -- submit "$work/job.json")
  if [ "$1" != none ]; then
    while :; do
      daemons ctl -- status "$id" -o json > "$work/poll.json"
      read -r state fraction < <(python3 -c "import json, sys; j = json.load(open(sys.argv[1]))
print(j['state'], j['bytes_done'] / j['bytes'])" "$work/poll.json")
      case $state in done | failed | cancelled) break ;; esac
      if python3 -c "import sys; sys.exit(float(sys.argv[1]) < 0.5)" "$fraction"; then
        shape "$1" >&2
        break
      fi
      sleep 0.1
    done
  fi
  daemons ctl -- watch "$id" > "$work/watch.log" 2>&1 || { cat "$work/watch.log" >&2; exit 1; }
  daemons ctl -- status "$id" -o json > "$work/run.json"
  echo "$fraction"
}

mkdir -p "$out"
results=$out/drift.jsonl
: > "$results"
cluster up 10 10 --node-rate "$(mbit $node_bytes)" --backbone-rate "$(mbit $backbone_bytes)"
traffic make "$work" --senders 10 --receivers 10 --min-mb "$min_mb" --max-mb "$max_mb" --seed "$seed"
# The agents' declared rate is not used: every job here is planned on a calibration.
daemons start --bin "$bin" --rate 1000000
shape "$((k * node_bytes))"
planned=$(calibrate k5)
variants=(keep replan right)
for scenario in half double; do
  case $scenario in
    half) drifted=$((k * node_bytes / 2)) ;;
    double) drifted=$((2 * k * node_bytes)) ;;
  esac
  for repeat in $(seq "$repeats"); do
    for v in 0 1 2; do
      variant=${variants[$(((v + repeat - 1) % 3))]}
      shape "$((k * node_bytes))"
      traffic clear "$work"
      sync
      case $variant in
        keep | replan)
          traffic job "$work" --algo oggp --measured --calibration "$planned" \
            --replan "$([ "$variant" = replan ] && echo yes || echo no)" > "$work/job.json"
          fraction=$(run_job "$drifted")
          cp "$work/run.json" "$work/run-1.json"
          rm -f "$work/run-2.json"
          ;;
        right)
          traffic job "$work" --algo oggp --measured --calibration "$planned" --replan no --half first > "$work/job.json"
          run_job none > /dev/null
          cp "$work/run.json" "$work/run-1.json"
          shape "$drifted"
          right=$(calibrate "$scenario")
          traffic job "$work" --algo oggp --measured --calibration "$right" --replan no --half second > "$work/job.json"
          run_job none > /dev/null
          cp "$work/run.json" "$work/run-2.json"
          fraction=0.5
          ;;
      esac
      traffic verify "$work" >&2
      python3 - "$work" "$scenario" "$variant" "$repeat" "$fraction" "$node_bytes" "$((k * node_bytes))" \
        "$drifted" >> "$results" <<'PY'
import json, os, sys
work, scenario, variant, repeat, fraction = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
node_rate, backbone_rate, drifted_rate = map(int, sys.argv[6:9])
runs = [json.load(open(os.path.join(work, f"run-{i}.json"))) for i in (1, 2)
        if os.path.exists(os.path.join(work, f"run-{i}.json"))]
for job in runs:
    assert job["state"] == "done", (job["state"], job.get("error"))
reports = [job["report"] for job in runs]
cal = lambda name: {key: json.load(open(os.path.join(work, f"calibration-{name}.json")))[key]
                    for key in ("id", "d", "D", "beta", "k")}
line = {"scenario": scenario, "variant": variant, "repeat": repeat,
        "measured_seconds": sum(r["measured_seconds"] for r in reports),
        "predicted_seconds": sum(r["predicted_seconds"] for r in reports),
        "steps": sum(len(r["steps"]) for r in reports),
        "bytes": sum(s["bytes"] for r in reports for s in r["steps"]),
        "reshaped_at_fraction": None if fraction == "none" else float(fraction),
        "k": [r["k"] for r in reports],
        "node_rate": node_rate, "backbone_rate": backbone_rate, "drifted_backbone_rate": drifted_rate,
        "calibration": cal("k5"),
        "replans": [{key: p.get(key) for key in ("at_step", "elapsed_seconds", "why", "cause", "old", "new",
                                                  "predicted_remaining_seconds_before",
                                                  "predicted_remaining_seconds_kept",
                                                  "predicted_remaining_seconds_after", "cost_seconds", "error")}
                    for r in reports for p in r.get("replans", [])],
        "load1": os.getloadavg()[0]}
if variant == "right":
    line["calibration_after"] = cal(scenario)
print(json.dumps(line))
PY
      tail -n 1 "$results"
    done
  done
done
python3 bench/drift_summary.py "$results" --json "$out/drift-summary.json" --csv "$out/drift.csv"
gnuplot -e "csv='$out/drift.csv'; svg='$out/drift.svg'" bench/drift.gp
echo "drift.sh: results in $results, $out/drift-summary.json, $out/drift.csv, chart $out/drift.svg"
