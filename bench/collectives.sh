#!/usr/bin/env bash
# Heterogeneous collectives side by side (issue 14, docs/collectives.md): 12 nodes in network
# namespaces on one switch (scripts/netns-star.sh), each node link shaped with tc to its own
# rate, the real daemons (scripts/netns-daemons.sh, each agent declaring its link's rate).
# Two shapes:
#   fig8  the SNF paper's Fig. 8 shape: 4 slow nodes and 8 fast ones, the root among the slow
#   mix3  a random mix of three speeds (seeded), the root n0
#   slow1 one slow node (n6) among 11 fast ones, the root n0 fast: the bound is the slow
#         node's link alone, which a schedule must keep busy from start to end
# For each array size, Baton's reduce (snf bnb binomial flat), allreduce (snf-fnf binomial
# ring) and multicast from the root to the 11 others (wrp binomial flat), each beside the
# report's model and plan predictions; then Open MPI's MPI_Reduce, MPI_Allreduce and
# MPI_Bcast of the same array (bench/mpi_collectives.cpp, mpirun over the namespaces through
# bench/netns_rsh.sh). Every Baton result is checked (bench/collective_data check on the
# root, cmp on the other nodes), every MPI result by the program itself. Root only.
# Peers (--peers, docs/collectives-bench.md "Peers"): mpi, Open MPI's default decisions;
# mpi-tuned, its tuned component forced to each of its pipelined, segmented and
# bandwidth-minded algorithms (mpi_tuned_runs: allreduce ring, segmented ring, Rabenseifner;
# reduce pipeline, binomial, Rabenseifner; bcast pipeline, chain, binomial, scatter +
# ring all-gather), the segmented ones once per --mpi-segment size; gloo, Gloo's ring and
# halving-doubling all-reduce, broadcast and reduce (bench/gloo_collectives.cpp, one process
# per namespace, rendezvous through a file store).
# The same rules for everyone (docs/collectives-bench.md, "Fair to the peers"): each Baton
# algorithm runs R times (rounds over all the algorithms of a size, after one untimed 64 KiB
# job of each), each peer configuration R timed times after one untimed run of the same
# collective in the same process; a result is the median. Open MPI runs with
# mpi_yield_when_idle (12 ranks share this machine's cores) and unbound.
# Every peer line carries cpu_seconds: the CPU time of all ranks from barrier to result;
# every Baton line submit_to_done_seconds beside the dataflow step's time (measured_seconds);
# every line tcp_retransmits (the TCP segments all nodes retransmitted during the run), utc
# (when it ended), commit (the tree's, "+dirty" with uncommitted changes outside docs/) and
# loadavg (/proc/loadavg's three load averages: the machine may be shared).
#
#   sudo bench/collectives.sh [--bin BUILD_DIR] [--out DIR] [--sizes BYTES,BYTES,...]
#                             [--slow-mbit S] [--mid-mbit M] [--fast-mbit F] [--seed N]
#                             [--shapes fig8,mix3,slow1] [--repeats R] [--mpi-repeats R]
#                             [--algorithms A,B,...] [--no-mpi] [--headroom H] [--queue-packets Q]
#                             [--peers mpi,mpi-tuned,gloo|none] [--peer-kinds reduce,allreduce,multicast]
#                             [--mpi-segment BYTES[,BYTES...]] [--prefix P] [--tmp DIR]
#
# Defaults: BUILD_DIR = build/release (built first, with the benchmarks), DIR = docs/bench,
# sizes 64 KiB, 1 MiB, 16 MiB, 64 MiB, S/M/F = 100/200/400 Mbit/s, seed 14, shapes fig8 and
# mix3, R = 3 (at least 3, for every implementation; --mpi-repeats sets the peers' alone),
# H = 0.93 (the share of a link's TCP goodput an agent declares:
# see declared_rates), Q = 100 (packets of each tbf queue, scripts/netns-star.sh), every
# peer on every kind (--peer-kinds narrows the peers' runs to the kinds named: at 64 MiB a
# multicast by Open MPI's default or Gloo's broadcast takes minutes), segments of 64 KiB
# and 1 MiB, namespaces bcoll-* (a second run at once needs another
# --prefix; --no-mpi drops mpi and mpi-tuned), the run's files under DIR = /dev/shm (--tmp:
# the twelve nodes share this machine's one disk, where syncing twelve result files added
# about 0.1 s to a 16 MiB all-reduce (6.08-6.09 s against 5.97 s, docs/collectives-bench.md,
# run I) that nodes with disks of their own would not wait for; the peers keep their
# results in memory). Writes DIR/collectives.jsonl (one JSON line per run),
# DIR/collectives.csv and DIR/collectives-summary.txt (bench/collectives_summary.py),
# DIR/collectives.svg (bench/collectives.gp), DIR/collectives-{coordinator,agents}.log and each
# run's whole report in DIR/reports/SHAPE-KIND-ALGORITHM-BYTES.json.
# Why 100 and 400 Mbit/s: every byte is sealed, checksummed and (on a reduction) combined
# on this 2-core machine, beside the kernel's shaping of 12 links; at these rates the links,
# not the processors, set the times, which is what the papers' models assume. The largest
# default size, 64 MiB, keeps the whole run near 20 minutes: flat's reduce and multicast
# move 11 copies through the slow root's 100 Mbit/s link (about a minute each at 64 MiB).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

bin=
out=docs/bench
sizes=65536,1048576,16777216,67108864
slow=100
mid=200
fast=400
seed=14
shapes=fig8,mix3
repeats=3
mpi_repeats=
algorithms=
mpi=true
peers=mpi,mpi-tuned,gloo
peer_kinds=reduce,allreduce,multicast
mpi_segments=65536,1048576
prefix=bcoll
tmp=/dev/shm
headroom=0.93
queue_packets=100
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift ;;
    --out) out=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --slow-mbit) slow=$2; shift ;;
    --mid-mbit) mid=$2; shift ;;
    --fast-mbit) fast=$2; shift ;;
    --seed) seed=$2; shift ;;
    --shapes) shapes=$2; shift ;;
    --repeats) repeats=$2; shift ;;
    --mpi-repeats) mpi_repeats=$2; shift ;;
    --algorithms) algorithms=$2; shift ;;
    --headroom) headroom=$2; shift ;;
    --queue-packets) queue_packets=$2; shift ;;
    --no-mpi) mpi=false ;;
    --peers) peers=$2; shift ;;
    --peer-kinds) peer_kinds=$2; shift ;;
    --mpi-segment) mpi_segments=$2; shift ;;
    --prefix) prefix=$2; shift ;;
    --tmp) tmp=$2; shift ;;
    *) echo "collectives.sh: unknown argument '$1' (see the comment at the top)" >&2; exit 2 ;;
  esac
  shift
done
die() { echo "collectives.sh: $*" >&2; exit 1; }
# Whether --algorithms (default: every one) names $1.
chosen() { [ -z "$algorithms" ] || [[ ",$algorithms," == *",$1,"* ]]; }
# The algorithms of kind $1 the benchmark runs, in their order.
kind_algorithms() {
  case $1 in
    reduce) echo snf bnb binomial flat pipelined-tree auto ;;
    allreduce) echo snf-fnf binomial ring pipelined-tree rate-rsag auto ;;
    multicast) echo wrp binomial flat pipelined-tree auto ;;
  esac
}
# Whether peer $1 (mpi, mpi-tuned, gloo) runs: named by --peers, and no MPI after --no-mpi.
peer() { [[ ",$peers," == *",$1,"* ]] && { [ "$mpi" = true ] || [[ "$1" != mpi* ]]; }; }
# Whether the peers run collectives of kind $1 (reduce, allreduce, multicast).
peer_kind() { [[ ",$peer_kinds," == *",$1,"* ]]; }
[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces and tc)"
[[ "$sizes" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "--sizes must be positive whole numbers of bytes, comma-separated"
[[ "$headroom" =~ ^(0\.[0-9]+|1(\.0*)?)$ ]] || die "--headroom must be a number in (0, 1] (got '$headroom')"
[[ "$queue_packets" =~ ^[1-9][0-9]*$ ]] || die "--queue-packets must be a positive whole number (got '$queue_packets')"
for r in "$slow" "$mid" "$fast"; do [[ "$r" =~ ^[1-9][0-9]*$ ]] || die "rates must be whole Mbit/s (got '$r')"; done
[[ "$seed" =~ ^[0-9]+$ ]] || die "--seed must be a whole number"
[[ "$shapes" =~ ^(fig8|mix3|slow1)(,(fig8|mix3|slow1))*$ ]] || die "--shapes lists fig8, mix3 and/or slow1"
[[ "$peers" =~ ^(none|(mpi|mpi-tuned|gloo)(,(mpi|mpi-tuned|gloo))*)$ ]] || die "--peers lists mpi, mpi-tuned and/or gloo, or is none"
[[ "$peer_kinds" =~ ^(reduce|allreduce|multicast)(,(reduce|allreduce|multicast))*$ ]] ||
  die "--peer-kinds lists reduce, allreduce and/or multicast"
[[ "$prefix" =~ ^[a-z][a-z0-9]{0,9}$ ]] || die "--prefix must be 1-10 lower-case letters or digits, starting with a letter"
# Another run's namespaces must not be torn down by this one's setup.
! ip netns list | awk '{print $1}' | grep -qE "^${prefix}-(n[0-9]+|sw)\$" ||
  die "namespaces $prefix-* exist (another collectives.sh run?); wait for it or give another --prefix"
[[ "$mpi_segments" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "--mpi-segment must be positive numbers of bytes, comma-separated"
# A median of fewer than three runs is one run's luck (docs/collectives-bench.md, "Fair to the peers").
[[ "$repeats" =~ ^[1-9][0-9]*$ ]] && [ "$repeats" -ge 3 ] || die "--repeats must be a whole number, at least 3"
mpi_repeats=${mpi_repeats:-$repeats}
[[ "$mpi_repeats" =~ ^[1-9][0-9]*$ ]] && [ "$mpi_repeats" -ge 3 ] || die "--mpi-repeats must be a whole number, at least 3"
IFS=, read -ra segment_list <<<"$mpi_segments"
IFS=, read -ra size_list <<<"$sizes"
for s in "${size_list[@]}"; do [ $((s % 4)) -eq 0 ] || die "--sizes: $s is not a whole number of f32 elements"; done
command -v mpirun >/dev/null || die "Open MPI's mpirun is not installed (scripts/setup.sh installs openmpi-bin)"
command -v gnuplot >/dev/null || die "gnuplot is not installed"
if [ -z "$bin" ]; then
  bin=build/release
  cmake -S . -B "$bin" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBATON_BUILD_TESTS=OFF >/dev/null
  cmake --build "$bin" -j "$(nproc)" --target batonctl baton-coordinator baton-agent collective_data mpi_collectives
  ! peer gloo || cmake --build "$bin" -j "$(nproc)" --target gloo_collectives ||
    die "gloo_collectives did not build (is libgloo-dev installed? scripts/setup.sh installs it)"
fi
bin=$(cd "$bin" && pwd)
for program in agent/baton-agent bench/collective_data bench/mpi_collectives; do
  [ -x "$bin/$program" ] || die "no $program under $bin (build it, or drop --bin to build build/release)"
done
! peer gloo || [ -x "$bin/bench/gloo_collectives" ] ||
  die "no bench/gloo_collectives under $bin (install libgloo-dev and build it, or leave gloo out of --peers)"

# The tree the run measures, read before it writes its results (which may be under docs/).
commit=$(git rev-parse --short=12 HEAD)
[ -z "$(git status --porcelain --untracked-files=no -- . ':!docs')" ] || commit+=+dirty

n=12
work=$(mktemp -d "$tmp/baton-collectives.XXXXXX") || die "cannot make a directory under --tmp $tmp"
star() { scripts/netns-star.sh "$@" --prefix "$prefix"; }
daemons() { scripts/netns-daemons.sh "$1" "$work" --prefix "$prefix" "${@:2}"; }
# The daemons' logs of a shape, appended to DIR (the agents' lines prefixed with the node):
# why a session or a flow ended is often only in an agent's log.
keep_log() {
  [ ! -f "$work/coordinator.log" ] || cat "$work/coordinator.log" >> "$out/collectives-coordinator.log" || true
  local node
  for node in $(seq 0 $((n - 1))); do
    [ ! -f "$work/n$node/agent.log" ] || sed "s/^/n$node /" "$work/n$node/agent.log" >> "$out/collectives-agents.log" || true
  done
}
cleanup() {
  keep_log
  daemons stop || true
  star down || true
  rm -rf "$work"
}
trap cleanup EXIT

# The link rates (Mbit/s) of a shape's 12 nodes, comma-separated, n0 first.
shape_rates() {
  case "$1" in
    fig8) echo "$slow,$slow,$slow,$slow,$fast,$fast,$fast,$fast,$fast,$fast,$fast,$fast" ;;
    mix3) python3 -c '
import random, sys
seed, n, speeds = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
rng = random.Random(seed)
print(",".join(rng.choice(speeds) for _ in range(n)))' "$seed" "$n" "$slow" "$mid" "$fast" ;;
    slow1) echo "$fast,$fast,$fast,$fast,$fast,$fast,$slow,$fast,$fast,$fast,$fast,$fast" ;;
  esac
}

# A declared rate is what TCP carries of the link's rate: 1448 payload bytes a 1514-byte
# frame, times the headroom (0.93 by default): a node's link also carries the ACKs of what
# it receives (a 66-byte frame per two segments, 2.2 %) and Baton's frame headers (under
# 0.7 % since chunks are at least 8 KiB: docs/transport.md, "Chunks and their headers").
# Paced at the full goodput, the ring's sends measured 1.51x their prediction (tbf queues
# overflowing, TCP backing off); at 0.93, 1.00x (fig8 at 25/100 Mbit/s, 16 MiB). At 0.96
# (run K, docs/collectives-bench.md) slow1's all-reduce gains what its one slow link does
# (16 MiB 5.97 s against 6.14 s in run J at 0.93), but a slow link then carries 0.99-1.00
# of its rate (counted: 1.09 wire bytes per data byte, both ways), and where several
# nodes are slow the all-reduce ran slower in seconds (fig8 16 MiB 6.36 s against 6.19 s),
# further from its plan, with half again as many retransmissions. One run each.
declared_rates() {
  python3 -c 'import sys; print(",".join(str(int(float(m) * 1e6 / 8 * 1448 / 1514 * float(sys.argv[2]))) for m in sys.argv[1].split(",")))' "$1" "$headroom"
}

nodes_json=$(python3 -c "import json; print(json.dumps(['n%d' % i for i in range($n)]))")

# The job file for one Baton run: KIND ALGORITHM BYTES.
job_json() {
  python3 - "$1" "$2" "$3" "$nodes_json" <<'PY'
import json, sys
kind, algorithm, size, nodes = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
data = {"file": "grad.bin", "offset": 0, "count": size // 4, "dtype": "f32"}
if kind == "reduce":
    job = {"kind": kind, "nodes": nodes, "root": "n0", "data": data, "op": "sum", "result": {"file": "result.bin"}}
elif kind == "allreduce":
    job = {"kind": kind, "nodes": nodes, "data": data, "op": "sum", "result": {"file": "result.bin"}}
else:
    job = {"kind": kind, "nodes": nodes, "multicasts": [{"source": "n0", "file": "grad.bin", "offset": 0,
           "length": size, "destinations": nodes[1:], "dst_file": "result.bin"}]}
job["algorithm"] = algorithm
print(json.dumps(job))
PY
}

# Whether the run's results are right: the root's reduction checked independently and every
# other holder's bytes equal to it (allreduce), or every destination's equal to the source.
verify() {
  local kind=$1 i
  if [ "$kind" = multicast ]; then
    for i in $(seq 1 $((n - 1))); do cmp -s "$work/n0/data/grad.bin" "$work/n$i/data/result.bin" || return 1; done
    return 0
  fi
  local inputs=()
  for i in $(seq 0 $((n - 1))); do inputs+=("$work/n$i/data/grad.bin"); done
  "$bin/bench/collective_data" check "$work/n0/data/result.bin" f32 sum "${inputs[@]}" >&2 || return 1
  if [ "$kind" = allreduce ]; then
    for i in $(seq 1 $((n - 1))); do cmp -s "$work/n0/data/result.bin" "$work/n$i/data/result.bin" || return 1; done
  fi
}

# TCP segments retransmitted by every node so far (each namespace has its own counters):
# a run's difference tells a schedule that overflowed a link's queue from one that did not.
retransmits() {
  local total=0 node count
  for node in $(seq 0 $((n - 1))); do
    count=$(ip netns exec "$prefix-n$node" awk '/^Tcp:/ { if (seen) print $13; seen = 1 }' /proc/net/snmp)
    total=$((total + count))
  done
  echo "$total"
}

# Appends the JSON line on stdin to the results with when it ended (UTC), the commit and
# the machine's load averages, and echoes it.
record() {
  python3 -c '
import datetime, json, sys
line = json.loads(sys.stdin.read())
loadavg = [float(x) for x in open("/proc/loadavg").read().split()[:3]]
line |= {"utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds"),
         "commit": sys.argv[1], "loadavg": loadavg, "load1": loadavg[0]}
print(json.dumps(line))' "$commit" | tee -a "$results"
}

# The median time (s) of three `batonctl agents` calls, which come back at once: what the
# start of a batonctl, and of `ip netns exec` around it, adds to a job's submit-to-done time.
ctl_seconds() {
  local i start times=()
  for i in 1 2 3; do
    start=$EPOCHREALTIME
    daemons ctl -- agents -o json > /dev/null
    times+=("$(python3 -c 'import sys; print(float(sys.argv[2]) - float(sys.argv[1]))' "$start" "$EPOCHREALTIME")")
  done
  printf '%s\n' "${times[@]}" | sort -g | sed -n 2p
}

# One Baton job: SHAPE RATES BYTES KIND ALGORITHM REPEAT (the round, from 1).
baton_run() {
  local shape=$1 rates=$2 size=$3 kind=$4 algorithm=$5 repeat=$6 i correct=true
  for i in $(seq 0 $((n - 1))); do rm -f "$work/n$i/data/result.bin"; done
  job_json "$kind" "$algorithm" "$size" > "$work/job.json"
  sync
  local before start end
  before=$(retransmits)
  # Submit-to-done: from batonctl's start, which posts the job, to the coordinator's answer
  # that it ended (`submit --wait` asks for that answer as soon as the job ends). A job that
  # fails is recorded with its error and the benchmark goes on: one broken algorithm must not
  # hide the others' numbers.
  start=$EPOCHREALTIME
  daemons ctl -- submit "$work/job.json" --wait -o json > "$work/submitted.out" 2> "$work/watch.log" ||
    cat "$work/watch.log" >&2
  end=$EPOCHREALTIME
  tail -n +2 "$work/submitted.out" > "$work/run.json"  # the first line is the job's id
  local retransmitted=$(($(retransmits) - before))
  # The whole report, kept for reading each task's planned against measured times.
  mkdir -p "$out/reports"
  cp "$work/run.json" "$out/reports/$shape-$kind-$algorithm-$size-$repeat.json"
  [ "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["state"])' "$work/run.json")" != done ] ||
    verify "$kind" || correct=false
  python3 - "$work/run.json" "$shape" "$rates" "$size" "$kind" "$algorithm" "$correct" "$retransmitted" \
    "$repeat" "$start" "$end" "$ctl" "$headroom" <<'PY' | record
import json, sys
job = json.load(open(sys.argv[1]))
shape, rates, size, kind, algorithm, correct = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6], sys.argv[7] == "true"
r = job["report"]
line = {"shape": shape, "impl": "baton", "kind": kind, "algorithm": algorithm, "bytes": size,
        "nodes": len(rates.split(",")), "root": "n0", "rates_mbit": [float(x) for x in rates.split(",")],
        "headroom": float(sys.argv[13]), "tcp_retransmits": int(sys.argv[8]), "repeat": int(sys.argv[9]),
        # batonctl's request to the job's answer, and what starting a batonctl costs of it
        "submit_to_done_seconds": float(sys.argv[11]) - float(sys.argv[10]), "ctl_seconds": float(sys.argv[12])}
if job["state"] != "done":
    print(json.dumps(line | {"failed": job.get("error", job["state"]), "predicted_seconds": r["predicted_seconds"],
                             "model_seconds": r.get("model_seconds")}))
    sys.exit(0)
print(json.dumps(line | {
                  # the dataflow step, release to the last node's report: what the models predict
                  "measured_seconds": r["measured_steps_seconds"], "job_seconds": r["measured_seconds"],
                  "predicted_seconds": r["predicted_seconds"], "model_seconds": r.get("model_seconds"),
                  "sends": sum(1 for s in r["steps"] for t in s.get("tasks", []) if t["kind"] == "send"),
                  # what the declared rates allow (docs/collectives.md, "The bandwidth bound"), and auto's pick
                  "bound_seconds": r.get("bandwidth_bound_seconds"), "chosen": r.get("algorithm"),
                  "candidates": r.get("algorithm_candidates"), "k": r.get("k"),
                  "correct": correct}))
PY
  [ "$correct" = true ] || die "$shape $kind $algorithm $size: wrong result (logs in $work)"
}

# Before a size's timed runs, one untimed job of every chosen algorithm, of 64 KiB (at most
# the size, $1); its line is not kept. Agents keep their connections (30 s unused), so
# otherwise the first job to use a pair of nodes pays for opening it (connect, handshake,
# slow start) and the jobs after it do not: at 1 MiB on fig8, rate-rsag's all-reduce named
# first measured 0.61-0.64 s and `auto`, the same plan right after it, 0.58 s
# (docs/collectives-bench.md, run H).
warm_up() {
  local kind algorithm id bytes=$(($1 < 65536 ? $1 : 65536))
  for kind in reduce allreduce multicast; do
    for algorithm in $(kind_algorithms "$kind"); do
      chosen "$algorithm" && [ "$algorithm" != auto ] || continue
      job_json "$kind" "$algorithm" "$bytes" > "$work/warm.json"
      id=$(daemons ctl -- submit "$work/warm.json")
      daemons ctl -- watch "$id" > "$work/warm.log" 2>&1 || cat "$work/warm.log" >&2
    done
  done
}

# One Open MPI run: SHAPE RATES BYTES OP [ALGORITHM SEGMENT MPIRUN-ARGUMENTS...] (default:
# its own decisions, recorded as algorithm openmpi; SEGMENT, bytes or 0 for none, is
# recorded as segment_bytes). Every rank yields the processor while it waits
# (mpi_yield_when_idle: 12 ranks share this machine's cores, and a rank polling for a
# message it waits for takes a core from the rank that would send it) and is left unbound,
# like Baton's agents.
mpi_run() {
  local shape=$1 rates=$2 size=$3 op=$4 algorithm=${5:-openmpi} segment=${6:-0}
  local -a extra=(--mca mpi_yield_when_idle 1 --bind-to none "${@:7}")
  local before
  before=$(retransmits)
  BATON_NETNS_PREFIX=$prefix ip netns exec "$prefix-sw" mpirun --allow-run-as-root -np $n --hostfile "$work/hosts" \
    --mca plm_rsh_agent "$repo/bench/netns_rsh.sh" --mca btl tcp,self \
    --mca btl_tcp_if_include 10.78.0.0/24 --mca oob_tcp_if_include 10.78.0.0/24 "${extra[@]}" \
    "$bin/bench/mpi_collectives" --op "$op" --bytes "$size" --dtype f32 --root 0 --repeats "$mpi_repeats" --warmups 1 \
    > "$work/mpi.json" 2> "$work/mpi.log" || { cat "$work/mpi.log" >&2; die "$shape MPI $algorithm $op $size failed"; }
  python3 - "$work/mpi.json" "$shape" "$rates" "$op" "$algorithm" "$segment" "$(($(retransmits) - before))" \
    "${extra[*]}" <<'PY' | record
import json, sys
line = [l for l in open(sys.argv[1]) if l.startswith("{")][-1]
m = json.loads(line)
shape, rates, op, algorithm = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
kind = {"reduce": "reduce", "allreduce": "allreduce", "bcast": "multicast"}[op]
assert m["correct"], m
line = {"shape": shape, "impl": "openmpi", "kind": kind, "algorithm": algorithm, "bytes": m["bytes"],
        "nodes": m["nodes"], "root": "n0", "rates_mbit": [float(x) for x in rates.split(",")],
        "measured_seconds": m["median_seconds"], "seconds": m["seconds"], "warmup_seconds": m["warmup_seconds"],
        "cpu_seconds": m["cpu_seconds"], "correct": m["correct"], "tcp_retransmits": int(sys.argv[7]),
        "mpirun_options": sys.argv[8]}
if int(sys.argv[6]):
    line["segment_bytes"] = int(sys.argv[6])
print(json.dumps(line))
PY
}

# Open MPI's tuned component forced to each of its algorithms that move large arrays well
# (numbers from `ompi_info --param coll tuned --level 9`, Open MPI 4.1): those marked with
# a segment size run once per --mpi-segment size, cut into segments of that many bytes.
mpi_tuned_runs() {
  local shape=$1 rates=$2 size=$3 entry op name number segmented segment
  # OP:NAME:NUMBER:SEGMENTED
  local -a table=(
    allreduce:ring:4:no allreduce:segmented-ring:5:yes allreduce:rabenseifner:6:no
    reduce:pipeline:3:yes reduce:binomial:5:yes reduce:rabenseifner:7:no
    bcast:pipeline:3:yes bcast:chain:2:yes bcast:binomial:6:yes bcast:scatter-allgather-ring:9:no)
  for entry in "${table[@]}"; do
    IFS=: read -r op name number segmented <<<"$entry"
    peer_kind "$([ "$op" = bcast ] && echo multicast || echo "$op")" || continue
    local -a rule=(--mca coll_tuned_use_dynamic_rules 1 --mca "coll_tuned_${op}_algorithm" "$number")
    if [ "$segmented" = no ]; then
      mpi_run "$shape" "$rates" "$size" "$op" "openmpi-$name" 0 "${rule[@]}"
      continue
    fi
    for segment in "${segment_list[@]}"; do
      mpi_run "$shape" "$rates" "$size" "$op" "openmpi-$name" "$segment" "${rule[@]}" \
        --mca "coll_tuned_${op}_algorithm_segmentsize" "$segment"
    done
  done
}

# One Gloo run: SHAPE RATES BYTES OP (ring, halving-doubling, broadcast, reduce), one
# process per namespace bound to its node's address, rendezvous in a fresh file store.
gloo_run() {
  local shape=$1 rates=$2 size=$3 op=$4 i failed=false
  local store=$work/gloo-store before
  before=$(retransmits)
  rm -rf "$store" && mkdir -p "$store"
  local -a pids=()
  for i in $(seq 0 $((n - 1))); do
    ip netns exec "$prefix-n$i" "$bin/bench/gloo_collectives" --op "$op" --bytes "$size" --rank "$i" --size $n \
      --store "$store" --prefix "$shape-$size-$op" --hostname "10.78.0.$((i + 1))" --repeats "$mpi_repeats" --warmups 1 \
      > "$work/gloo-$i.json" 2> "$work/gloo-$i.log" &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do wait "${pids[$i]}" || { failed=true; cat "$work/gloo-$i.log" >&2; }; done
  [ "$failed" = false ] || die "$shape Gloo $op $size failed"
  python3 - "$work/gloo-0.json" "$shape" "$rates" "$op" "$(($(retransmits) - before))" <<'PY' | record
import json, sys
m = json.loads([l for l in open(sys.argv[1]) if l.startswith("{")][-1])
shape, rates, op = sys.argv[2], sys.argv[3], sys.argv[4]
kind = {"ring": "allreduce", "halving-doubling": "allreduce", "broadcast": "multicast", "reduce": "reduce"}[op]
assert m["correct"], m
print(json.dumps({"shape": shape, "impl": "gloo", "kind": kind, "algorithm": op, "bytes": m["bytes"],
                  "nodes": m["nodes"], "root": "n0", "rates_mbit": [float(x) for x in rates.split(",")],
                  "measured_seconds": m["median_seconds"], "seconds": m["seconds"],
                  "warmup_seconds": m["warmup_seconds"], "cpu_seconds": m["cpu_seconds"],
                  "correct": m["correct"], "tcp_retransmits": int(sys.argv[5])}))
PY
}

# The peers chosen by --peers on one shape and size, on the kinds --peer-kinds names.
peer_runs() {
  local shape=$1 rates=$2 size=$3 op
  if peer mpi; then
    for op in reduce allreduce bcast; do
      ! peer_kind "$([ "$op" = bcast ] && echo multicast || echo "$op")" || mpi_run "$shape" "$rates" "$size" "$op"
    done
  fi
  ! peer mpi-tuned || mpi_tuned_runs "$shape" "$rates" "$size"
  if peer gloo; then
    ! peer_kind allreduce || for op in ring halving-doubling; do gloo_run "$shape" "$rates" "$size" "$op"; done
    ! peer_kind multicast || gloo_run "$shape" "$rates" "$size" broadcast
    ! peer_kind reduce || gloo_run "$shape" "$rates" "$size" reduce
  fi
}

mkdir -p "$out"
results=$out/collectives.jsonl
: > "$results"
: > "$out/collectives-coordinator.log"
: > "$out/collectives-agents.log"
for i in $(seq 1 $n); do echo "10.78.0.$i slots=1"; done > "$work/hosts"
IFS=, read -ra shape_list <<<"$shapes"
started=$(date +%s)
for shape in "${shape_list[@]}"; do
  rates=$(shape_rates "$shape")
  echo "collectives.sh: $shape: link rates (Mbit/s) $rates" >&2
  keep_log
  star up --rates "$rates" --queue-packets "$queue_packets"
  daemons start --bin "$bin" --rate "$(declared_rates "$rates")"
  ctl=$(ctl_seconds)
  for size in "${size_list[@]}"; do
    for i in $(seq 0 $((n - 1))); do
      "$bin/bench/collective_data" generate "$work/n$i/data/grad.bin" $((size / 4)) f32 $((seed * 100 + i))
    done
    warm_up "$size"
    for repeat in $(seq "$repeats"); do
      for kind in reduce allreduce multicast; do
        for algorithm in $(kind_algorithms "$kind"); do
          ! chosen "$algorithm" || baton_run "$shape" "$rates" "$size" "$kind" "$algorithm" "$repeat"
        done
      done
    done
    peer_runs "$shape" "$rates" "$size"
    echo "collectives.sh: $shape $size bytes done after $(($(date +%s) - started)) s" >&2
  done
  rm -f "$work"/n*/data/*.bin
  daemons stop
  star down
done
python3 bench/collectives_summary.py "$results" --csv "$out/collectives.csv" | tee "$out/collectives-summary.txt"
# The chart's rows: the shapes run, in the CSV's order.
plot_shapes=$(for s in fig8 mix3 slow1; do [[ ",$shapes," != *",$s,"* ]] || printf '%s ' "$s"; done)
gnuplot -e "csv='$out/collectives.csv'; svg='$out/collectives.svg'; shapes='$plot_shapes'" bench/collectives.gp ||
  echo "collectives.sh: no chart (gnuplot needs every panel to have points: run every size and algorithm)" >&2
echo "collectives.sh: results in $results, $out/collectives-summary.txt, chart $out/collectives.svg ($(($(date +%s) - started)) s)"
