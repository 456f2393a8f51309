#!/usr/bin/env bash
# ctest netns_cluster (label netns, root only): the real daemons on separate network
# namespaces, 7 senders and 7 receivers each on its own address, node links shaped to
# d = 40 Mbit/s and the backbone to D = k x d for k = 3, 5 and 7. For each k one OGGP job
# moves a seeded random traffic matrix; the test checks that the job is done, that the
# coordinator's plan used k = floor(D/d), that every destination byte equals its source,
# and (from tc's own counters) that the data really crossed the shaped backbone.
# Skipped (exit 77, reason printed) without root or without namespaces, veth and tbf.
#   tests/netns/netns_test.sh BUILD_DIR
set -euo pipefail

bin=${1:?usage: netns_test.sh BUILD_DIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/netns/lib.sh"

require_netns

use_namespaces cluster bt$$ "$(mktemp -d /tmp/baton-netns-test.XXXXXX)"

n=7
node_mbit=40
node_bytes=$((node_mbit * 1000000 / 8))
cluster up $n $n --node-rate $node_mbit --backbone-rate $((3 * node_mbit))
d=$((node_bytes * 1448 / 1514))
daemons start --bin "$bin" --rate $d
traffic make "$work" --senders $n --receivers $n --min-mb 0.05 --max-mb 0.5 --seed 7
total=$(python3 -c 'import json,sys; print(sum(map(sum, json.load(open(sys.argv[1]))["bytes"])))' "$work/traffic.json")

# Each agent registered from its own namespace's address.
daemons ctl -- agents -o json | python3 -c '
import json, sys
agents = {a["node"]: a for a in json.load(sys.stdin)["agents"]}
n = int(sys.argv[1])
for side, net in (("s", 1), ("r", 2)):
    for i in range(1, n + 1):
        a = agents.get(f"{side}{i}")
        want = f"10.77.{net}.{i}:7072"
        if a is None or not a["alive"] or a["addresses"] != [want]:
            sys.exit(f"agent {side}{i}: expected alive at {want}, got {a}")
print(f"{len(agents)} agents, each on its own address")' $n || fail "agents' addresses"

for k in 3 5 7; do
  cluster shape --node-rate $node_mbit --backbone-rate $((k * node_mbit))
  before=$(cluster backbone-bytes)
  traffic clear "$work"
  traffic job "$work" --algo oggp --node-rate $node_bytes --backbone-rate $((k * node_bytes)) --beta 0.01 > "$work/job.json"
  id=$(daemons ctl -- submit "$work/job.json")
  daemons ctl -- watch "$id" > "$work/watch-$k.log" 2>&1 || { cat "$work/watch-$k.log"; fail "k=$k: the job did not finish"; }
  daemons ctl -- status "$id" -o json > "$work/job-$k.json"
  python3 - "$work/job-$k.json" $k <<'PY' || fail "k=$k: the job's report"
import json, sys
job, k = json.load(open(sys.argv[1])), int(sys.argv[2])
report = job["report"]
if job["state"] != "done":
    sys.exit(f"state {job['state']}: {job.get('error')}")
if report["k"] != k:
    sys.exit(f"the plan used k = {report['k']}, expected floor(D/d) = {k}")
if report["algorithm"] != "oggp":
    sys.exit(f"algorithm {report['algorithm']}")
print(f"k={k}: done, {len(report['steps'])} steps, measured {report['measured_seconds']:.2f} s, "
      f"predicted {report['predicted_seconds']:.2f} s, lower bound {report['lower_bound_seconds']:.2f} s")
PY
  traffic verify "$work" || fail "k=$k: destination bytes"
  after=$(cluster backbone-bytes)
  [ $((after - before)) -ge "$total" ] ||
    fail "k=$k: the backbone's tbf sent $((after - before)) bytes, less than the $total bytes of the job"
done
# The fault matrix's link cut (docs/faults.md): receiver r1's switch port down for 10 s
# mid-job, then up. Its agent and the coordinator lose each other; the step fails and is
# retried once r1 is back, and the job ends done with every byte in place.
cluster shape --node-rate $node_mbit --backbone-rate $((3 * node_mbit))
traffic make "$work" --senders $n --receivers $n --min-mb 1 --max-mb 3 --seed 8
traffic job "$work" --algo oggp --node-rate $node_bytes --backbone-rate $((3 * node_bytes)) --beta 0.01 > "$work/job.json"
id=$(daemons ctl -- submit "$work/job.json")
sleep 3
ip -n "$prefix-gw2" link set r1 down
sleep 10
ip -n "$prefix-gw2" link set r1 up
daemons ctl -- watch "$id" > "$work/watch-cut.log" 2>&1 || { cat "$work/watch-cut.log"; fail "link cut: the job did not finish"; }
daemons ctl -- status "$id" -o json | python3 -c '
import json, sys
job = json.load(sys.stdin)
state, report = job["state"], job["report"]
if state != "done":
    sys.exit("state " + state + ": " + str(job.get("error")))
retried = [i for i, s in enumerate(report["steps"]) if s.get("attempts", 1) > 1]
print("link cut: done in %.1f s, steps retried: %s" % (report["measured_seconds"], retried))
if not retried:
    sys.exit("no step was retried: the link cut did not land mid-job")' || fail "link cut: the job's report"
traffic verify "$work" || fail "link cut: destination bytes"
echo "PASSED: k = 3, 5, 7 through the shaped namespace cluster; a receiver's 10 s link cut"
