#!/usr/bin/env bash
# ctest netns_ha (label netns, root only): the leading coordinator's network cut mid-job
# (docs/ha.md). Two coordinators, each in a network namespace of its own joined to the
# host by a veth pair; a 3-member etcd cluster and 2 + 2 agents on the host, the agents
# listing both coordinators. One job of four steps of about a second; after its first
# step the leader's link is taken down: it can renew its lease no more and must stop
# (exit 3, `no longer the leader`) within its TTL, the standby must lead, the agents
# register with it, and the job must end done with every destination byte equal to its
# source. The link then comes back up and the old leader, started again, stands by.
# Skipped (exit 77, reason printed) without root or namespaces, or without etcd (a failure
# then under CI=true).
#   tests/netns/ha_test.sh BUILD_DIR
set -euo pipefail

bin=${1:?usage: ha_test.sh BUILD_DIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/netns/lib.sh"

require_netns
command -v etcd >/dev/null || missing_tool "etcd is not on PATH (package etcd-server; scripts/setup.sh installs it)"

prefix=bha$$
work=$(mktemp -d /tmp/baton-netns-ha.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  for c in 1 2; do ip netns del "$prefix-c$c" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# Waits up to $1 seconds for the command that follows to succeed (another process's state).
wait_until() {
  local limit=$1
  shift
  local deadline=$((SECONDS + limit))
  until "$@"; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.05
  done
}
logged() { grep -qs -- "$2" "$work/$1.log"; }

# 10.23X.c.1 on the host, 10.23X.c.2 in coordinator c's namespace.
net=$((200 + $$ % 50))
for c in 1 2; do
  ip netns add "$prefix-c$c"
  ip link add "${prefix}h$c" type veth peer name eth0 netns "$prefix-c$c"
  ip addr add "10.$net.$c.1/24" dev "${prefix}h$c"
  ip link set "${prefix}h$c" up
  ip -n "$prefix-c$c" addr add "10.$net.$c.2/24" dev eth0
  ip -n "$prefix-c$c" link set eth0 up
  ip -n "$prefix-c$c" link set lo up
done

# etcd on the host: peers on loopback, clients on both host-side addresses.
port=$((20000 + ($$ % 400) * 10))
cluster=""
for m in 0 1 2; do cluster+="${cluster:+,}m$m=http://127.0.0.1:$((port + 5 + m))"; done
for m in 0 1 2; do
  p=$((port + m))
  etcd --name "m$m" --data-dir "$work/m$m" \
    --listen-client-urls "http://10.$net.1.1:$p,http://10.$net.2.1:$p" \
    --advertise-client-urls "http://10.$net.1.1:$p" \
    --listen-peer-urls "http://127.0.0.1:$((port + 5 + m))" \
    --initial-advertise-peer-urls "http://127.0.0.1:$((port + 5 + m))" \
    --initial-cluster "$cluster" --initial-cluster-state new --initial-cluster-token "$prefix" \
    --heartbeat-interval 50 --election-timeout 500 --log-outputs stderr > "$work/etcd-m$m.log" 2>&1 &
  pids+=($!)
done
for m in 0 1 2; do
  wait_until 30 curl -sf "http://10.$net.1.1:$((port + m))/health" -o /dev/null || fail "etcd m$m did not start"
done

echo "integration-test-secret-0123456789" > "$work/secret"
start_coordinator() {
  local c=$1
  cat > "$work/c$c.toml" <<EOF
id = "c$c"
agent_address = "10.$net.$c.2:7071"
api_address = "10.$net.$c.2:7070"
secret_file = "secret"
state_dir = "c$c-state"
heartbeat_seconds = 0.2
journal = "etcd"
etcd_endpoints = ["http://10.$net.$c.1:$port", "http://10.$net.$c.1:$((port + 1))", "http://10.$net.$c.1:$((port + 2))"]
etcd_prefix = "/baton/netns-ha/"
leader_ttl_seconds = 2
EOF
  (cd "$work" && exec ip netns exec "$prefix-c$c" "$bin/coordinator/daemon/baton-coordinator" --config "c$c.toml" \
    --ready-file "c$c.ready" >> "c$c.log" 2>&1) &
  pids+=($!)
  coordinator_pid=$!
}
start_coordinator 1
c1_pid=$coordinator_pid
wait_until 30 test -s "$work/c1.ready" || fail "c1 did not lead: $(cat "$work/c1.log")"
start_coordinator 2
wait_until 30 logged c2 "standby: " || fail "c2 did not stand by: $(cat "$work/c2.log")"

for node in a0 a1 b0 b1; do
  mkdir -p "$work/$node/data"
  cat > "$work/$node/agent.toml" <<EOF
node_id = "$node"
coordinator = ["10.$net.1.2:7071", "10.$net.2.2:7071"]
secret_file = "../secret"
data_root = "data"
data_address = "127.0.0.1:0"
rate = 100000000
buffer_count = 8
buffer_size = 262144
EOF
done
head -c 2000000 /dev/urandom > "$work/a0/data/in.bin"
head -c 2000000 /dev/urandom > "$work/a1/data/in.bin"
for node in a0 a1 b0 b1; do
  (cd "$work/$node" && exec "$bin/agent/baton-agent" --config agent.toml > agent.log 2>&1) &
  pids+=($!)
done

api() { curl -sf "http://10.$net.$1.2:7070$2"; }
alive() { [ "$(api "$1" /v1/agents | jq '[.agents[] | select(.alive)] | length')" = 4 ]; }
wait_until 30 alive 1 || fail "the agents did not register with c1"

# Two senders, two receivers, k = 1: four steps, one pair's 1 MB at 1 MB/s each.
python3 - > "$work/job.json" <<'PY'
import json
mb = 1_000_000
transfers = [{"src_node": src, "src_file": "in.bin", "src_offset": r * mb, "length": mb,
              "dst_node": f"b{r}", "dst_file": "out.bin", "dst_offset": s * mb}
             for s, src in enumerate(("a0", "a1")) for r in (0, 1)]
print(json.dumps({"senders": ["a0", "a1"], "receivers": ["b0", "b1"],
                  "platform": {"sender_rate": 1e6, "receiver_rate": 1e6, "backbone_rate": 1e6, "step_startup": 0.001},
                  "transfers": transfers}))
PY
id=$(curl -sf -X POST -H 'Content-Type: application/json' --data-binary @"$work/job.json" \
  "http://10.$net.1.2:7070/v1/jobs" | jq -r .id) || fail "c1 refused the job"
first_step_done() {
  local bytes
  bytes=$(api 1 "/v1/jobs/$id" | jq .bytes_done) || return 1
  [ "${bytes:-0}" -ge 1000000 ]
}
wait_until 30 first_step_done || fail "the job's first step did not end: $(cat "$work/c1.log")"

cut=$SECONDS
ip link set "${prefix}h1" down
wait_until 10 test -s "$work/c2.ready" || fail "c2 did not lead after c1's link was cut: $(cat "$work/c2.log")"
echo "c2 leads $((SECONDS - cut)) s after c1's link was cut (lease TTL 2 s)"
# c1 loses nothing of its process: it must find by itself that it no longer leads.
timeout 10 tail --pid="$c1_pid" -f /dev/null || true  # returns when c1 exits
! kill -0 "$c1_pid" 2>/dev/null || fail "c1, cut off, still runs: $(cat "$work/c1.log")"
set +e
wait "$c1_pid"
status=$?
set -e
[ "$status" = 3 ] || fail "c1 exited $status, not 3: $(cat "$work/c1.log")"
logged c1 "no longer the leader" || fail "c1 did not say it lost the lead: $(cat "$work/c1.log")"

job_ended() { api 2 "/v1/jobs/$id" | jq -e '.state == "done" or .state == "failed" or .state == "cancelled"' > /dev/null; }
wait_until 60 job_ended || fail "job $id did not end on c2: $(cat "$work/c2.log")"
state=$(api 2 "/v1/jobs/$id" | jq -r .state)
[ "$state" = "done" ] || fail "job $id ended $state: $(api 2 "/v1/jobs/$id")"
logged c2 "job $id: resuming at step" || fail "c2 did not resume job $id: $(cat "$work/c2.log")"
for r in 0 1; do
  cmp <(head -c $(((r + 1) * 1000000)) "$work/a0/data/in.bin" | tail -c 1000000;
        head -c $(((r + 1) * 1000000)) "$work/a1/data/in.bin" | tail -c 1000000) "$work/b$r/data/out.bin" ||
    fail "b$r's out.bin differs from the sources"
done
# No agent ever took a message from c1 after c2's: each refused an older epoch or never met one.
for node in a0 a1 b0 b1; do
  ! grep -q "registered with coordinator c1" <(sed -n '/registered with coordinator c2/,$p' "$work/$node/agent.log") ||
    fail "agent $node registered with c1 after c2 led"
done

# The link back and c1 started again (systemd's Restart=): it stands by behind c2.
ip link set "${prefix}h1" up
mv "$work/c1.log" "$work/c1-cut.log"
start_coordinator 1
wait_until 30 logged c1 "standby: {\"agents\":\"10.$net.2.2:7071\"" || fail "c1 did not stand by: $(cat "$work/c1.log")"
echo "PASSED: c1's link cut mid-job: c1 exited 3 within its TTL, c2 led, job $id done, every byte verified; c1 back stands by"
