#!/usr/bin/env bash
# ctest netns_calibration (label netns, root only): calibration on the Fig. 16 cluster of
# docs/fig16.md, 10 senders and 10 receivers in network namespaces, the backbone shaped to
# D = 100 Mbit/s and the node links to d = D/k, for k = 3, 5, 6 and 7 (one cluster, reshaped).
# For each k, `batonctl calibrate -o json` (up to four times if its figures miss) must find k
# exactly, d and D within 3 % of the goodput tc allows (link rate x 1448/1514:
# docs/fig16.md), beta within [0, 20 ms] (the start-up of a k-flow step; the Fig. 16 jobs
# ran on their model with 10 ms declared), and take under 30 s; then a job without "platform" is planned on it (k in its report), and every
# destination byte is checked. Skipped (exit 77, reason printed) without root, namespaces,
# veth or tbf, and when every calibration that missed ran with a tenth of the CPU stolen.
#   tests/netns/calibration_test.sh BUILD_DIR [sanitized]
set -euo pipefail

bin=${1:?usage: calibration_test.sh BUILD_DIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/netns/lib.sh"

# Its figures are the network's only when the agents outrun their links: a sanitizer build's
# agents are slower than that (d measured 4-5 % low, jobs re-planned on drift), so there
# it says so and measures nothing.
[ "${2:-}" != sanitized ] || skip "calibration measures link rates within 3 %: not in a sanitizer build (ASan agents are slower than their links)"

require_netns

use_namespaces cluster bc$$ "$(mktemp -d /tmp/baton-netns-calibration.XXXXXX)"

n=10
backbone_bytes=$((100000000 / 8))
mbit() { awk -v b="$1" 'BEGIN { printf "%.6f", b * 8 / 1e6 }'; }
# Links with a 5 ms bucket: on 1 ms, this shared VM's late softirqs made tc's own links
# 5-22 % slower than their rate whenever it was busy or its CPU stolen, and the test
# measured that (docs/fig16.md, "The cluster"). The price: a flow on a rested link gets
# its first 5 ms of bytes at once, so beta here is the start-up less up to 5 ms.
cluster up $n $n --node-rate 100 --backbone-rate 100 --bucket-ms 5
# The agents declare a rate nobody uses here: jobs are planned on the calibration.
daemons start --bin "$bin" --rate 1000000
traffic make "$work" --senders $n --receivers $n --min-mb 0.1 --max-mb 0.4 --seed 18
group() { local side=$1; seq -s, -f "$side%g" 1 $n; }

for k in 3 5 6 7; do
  node_bytes=$((backbone_bytes / k))
  cluster shape --node-rate "$(mbit $node_bytes)" --backbone-rate "$(mbit $((k * node_bytes)))" --bucket-ms 5
  # A calibration whose figures miss is measured again, up to four in all: this machine is a
  # shared two-core VM, and when it is busy or its CPU stolen by the hypervisor tc's own
  # links deliver less than their rate (docs/fig16.md, "The cluster": d and D 5-12 % low at
  # 18 % steal; seen here: D -14 to -19 % at 15-25 %). Every attempt is printed with the
  # load average and the share of CPU stolen while it ran. Three misses with less than 10 %
  # stolen fail the test; when every miss ran with more, the links could not be held to
  # their rate, and the test says so and is skipped.
  honest_misses=0
  for attempt in 1 2 3 4; do
    stat_before=$(head -n 1 /proc/stat)
    daemons ctl -- calibrate --senders "$(group s)" --receivers "$(group r)" -o json > "$work/calibration-$k.json" ||
      { cat "$work/calibration-$k.json"; tail -n 20 "$work/coordinator.log"; fail "k=$k: the calibration failed"; }
    verdict=0
    python3 - "$work/calibration-$k.json" $k $node_bytes "$stat_before" <<'PY' || verdict=$?
import json, sys
c, k, node_bytes = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
before, after = ([int(v) for v in line.split()[1:9]] for line in (sys.argv[4], open("/proc/stat").readline()))
ticks = [a - b for a, b in zip(after, before)]
steal = ticks[7] / max(sum(ticks), 1)      # /proc/stat's cpu line: user nice system idle iowait irq softirq steal
d_goodput = node_bytes * 1448 / 1514       # what tc lets one TCP flow deliver (docs/fig16.md)
D_goodput = k * node_bytes * 1448 / 1514
print(f"k={k}: d {c['d'] / 1e6:.3f} MB/s ({c['d'] / d_goodput - 1:+.1%} of tc's goodput), "
      f"D {c['D'] / 1e6:.3f} MB/s ({c['D'] / D_goodput - 1:+.1%}), beta {c['beta'] * 1000:.1f} ms, "
      f"(one flow {c['beta_one_flow'] * 1000:.1f} ms), k {c['k']}, {c['probe_steps']} probe steps in {c['seconds']:.1f} s, "
      f"load average {open('/proc/loadavg').read().split()[0]}, {steal:.0%} of the CPU stolen")
errors = []
if c["k"] != k: errors.append(f"k = {c['k']}, expected {k}")
if abs(c["d"] / d_goodput - 1) > 0.03: errors.append(f"d off by {c['d'] / d_goodput - 1:+.1%}")
if abs(c["D"] / D_goodput - 1) > 0.03: errors.append(f"D off by {c['D'] / D_goodput - 1:+.1%}")
if not 0 <= c["beta"] <= 0.02: errors.append(f"beta {c['beta']} s outside [0, 0.02]")
if c["seconds"] > 30: errors.append(f"took {c['seconds']:.1f} s, more than 30 s")
if errors: print("missed: " + "; ".join(errors))
sys.exit(0 if not errors else 3 if steal >= 0.10 else 1)
PY
    [ "$verdict" != 0 ] || break
    [ "$verdict" = 3 ] || honest_misses=$((honest_misses + 1))
    [ "$honest_misses" -lt 3 ] || fail "k=$k: the calibration's figures missed three times with less than 10 % of the CPU stolen"
    if [ "$attempt" = 4 ]; then
      [ "$honest_misses" -gt 0 ] || skip "k=$k: every calibration that missed ran with 10 % or more of the CPU stolen by the hypervisor, and tc's links do not hold their rate then (docs/fig16.md): nothing measured"
      fail "k=$k: the calibration's figures, four times"
    fi
    echo "k=$k: calibrating again (attempt $((attempt + 1)) of 4)"
  done
  # A job without "platform": planned on that calibration.
  traffic clear "$work"
  traffic job "$work" --algo oggp --measured > "$work/job.json"
  id=$(daemons ctl -- submit "$work/job.json")
  daemons ctl -- watch "$id" > "$work/watch-$k.log" 2>&1 || { cat "$work/watch-$k.log"; fail "k=$k: the job did not finish"; }
  daemons ctl -- status "$id" -o json > "$work/job-$k.json"
  python3 - "$work/job-$k.json" $k <<'PY' || fail "k=$k: the job's report"
import json, sys
job, k = json.load(open(sys.argv[1])), int(sys.argv[2])
r = job["report"]
if job["state"] != "done": sys.exit(f"state {job['state']}: {job.get('error')}")
# Planned on the calibration's k; a re-plan on drift may change it later (agents slower than
# their links, as in a sanitizer build, are drift too): the first plan's k is the replan's old k.
replans = r.get("replans") or []
planned_k = replans[0]["old"]["k"] if replans else r["k"]
if planned_k != k or r["platform"]["source"] != "calibration": sys.exit(f"k {planned_k}, platform {r['platform']}")
if replans: print(f"k={k}: re-planned {len(replans)} time(s) on drift: {replans[0].get('why', '')}")
print(f"k={k}: a job on the calibration: done in {r['measured_seconds']:.2f} s, predicted {r['predicted_seconds']:.2f} s")
PY
  traffic verify "$work" || fail "k=$k: destination bytes"
done
echo "PASSED: calibration finds k = 3, 5, 6, 7 and d, D within 3 % of tc's goodput; jobs planned on it"
