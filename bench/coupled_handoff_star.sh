#!/usr/bin/env bash
# The coupled handoff against one MPI_Alltoallv (bench/coupled_handoff.cpp) over a star of
# network namespaces with unequal links (scripts/netns-star.sh) instead of loopback: the 4
# producer ranks on nodes n0..n3, the 3 consumer ranks on n4..n6, one rank per node (its
# own namespace and host name, bench/netns_rsh.sh), MPI over TCP on the star, the
# coordinator in the switch's namespace. Root only. Prints the header and the lines of
# bench/coupled_handoff.cpp, after a line giving the links.
#
# Each rank's agent declares its link's TCP goodput, the tc rate less the Ethernet, IP and
# TCP headers of a full segment (1448 of 1514 bytes, as bench/fig16.sh's agents), so the
# handoffs plan on each node's rate and bound_s is T* on those rates.
#
#   bench/coupled_handoff_star.sh [BUILD_DIR] [MIB...]
#   RATES=MBIT,... (7 links, n0 first; default 400,100,400,200,400,200,100), PREFIX (hcstar)
#   ALGORITHM (the handoffs'; default the coordinator's), REPETITIONS (timed steps per size;
#   default 5), REPORTS=FILE (each handoff job's report, one JSON line each, written there),
#   DECLARED=B/S,... (7 rates the agents declare instead; 1000000000 seven times is the
#   session's default, one rate for every node, as before per-node platforms)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
build=$(cd "${1:-$repo/build/ci}" && pwd)
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 16 64)
rates=${RATES:-400,100,400,200,400,200,100}
prefix=${PREFIX:-hcstar}
die() { echo "coupled_handoff_star.sh: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "run as root (network namespaces and tc)"
bench_bin=$build/bench/coupled_handoff
coordinator_bin=$build/coordinator/daemon/baton-coordinator
for f in "$bench_bin" "$coordinator_bin"; do
  [ -x "$f" ] || die "$f is missing (build coupled_handoff and baton-coordinator)"
done
IFS=, read -ra links <<<"$rates"
[ ${#links[@]} -eq 7 ] || die "RATES must list 7 links (4 producers, 3 consumers), got ${#links[@]}"

work=$(mktemp -d "${TMPDIR:-/tmp}/baton-coupled-star.XXXXXX")
coordinator_pid=
cleanup() {
  if [ -n "$coordinator_pid" ]; then
    kill "$coordinator_pid" 2>/dev/null || true
    wait "$coordinator_pid" 2>/dev/null || true
  fi
  "$repo/scripts/netns-star.sh" down --prefix "$prefix" || true
  rm -rf "$work"
}
trap cleanup EXIT
"$repo/scripts/netns-star.sh" up --rates "$rates" --prefix "$prefix" >&2

# The coordinator on the switch's bridge, where every node reaches it.
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/secret"
cat > "$work/coordinator.toml" <<TOML
agent_address = "10.78.0.254:0"
api_address = "10.78.0.254:0"
secret_file = "secret"
state_dir = "state"
heartbeat_seconds = 0.5
TOML
ip netns exec "$prefix-sw" "$coordinator_bin" --config "$work/coordinator.toml" --ready-file "$work/ready.json" \
  2> "$work/coordinator.log" &
coordinator_pid=$!
for _ in $(seq 200); do
  [ -s "$work/ready.json" ] && break
  kill -0 "$coordinator_pid" 2>/dev/null || break
  sleep 0.05
done
[ -s "$work/ready.json" ] || { cat "$work/coordinator.log" >&2; die "the coordinator did not start"; }
BATON_API=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['api'])" "$work/ready.json")
BATON_COORDINATOR=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['agents'])" "$work/ready.json")
BATON_SECRET_FILE=$work/secret
BATON_PRODUCERS=4
BATON_DATA_HOSTS=$(seq -s, -f "10.78.0.%g" 1 7)
BATON_DATA_RATES=${DECLARED:-$(for l in "${links[@]}"; do echo $((l * 1000000 / 8 * 1448 / 1514)); done | paste -sd,)}
BATON_REPETITIONS=${REPETITIONS:-5}
BATON_ALGORITHM=${ALGORITHM:-}
if [ -n "$BATON_ALGORITHM" ]; then export BATON_ALGORITHM; fi
export BATON_API BATON_COORDINATOR BATON_SECRET_FILE BATON_PRODUCERS BATON_DATA_HOSTS BATON_DATA_RATES BATON_REPETITIONS

for i in $(seq 1 7); do echo "10.78.0.$i slots=1"; done > "$work/hosts"
echo -e "# links (Mbit/s): producers ${links[*]:0:4}, consumers ${links[*]:4:3}"
echo -e "# declared rates (bytes/s, TCP goodput): $BATON_DATA_RATES; algorithm ${BATON_ALGORITHM:-default}"
echo -e "method\tmib\trows\tcols\tblock\trepetitions\tmedian_s\tbest_s\tworst_s\tbound_s"
BATON_NETNS_PREFIX=$prefix ip netns exec "$prefix-sw" mpirun --allow-run-as-root -np 7 --hostfile "$work/hosts" \
  --mca plm_rsh_agent "$here/netns_rsh.sh" --mca btl tcp,self \
  --mca btl_tcp_if_include 10.78.0.0/24 --mca oob_tcp_if_include 10.78.0.0/24 \
  -x BATON_API -x BATON_COORDINATOR -x BATON_SECRET_FILE -x BATON_PRODUCERS -x BATON_DATA_HOSTS \
  -x BATON_DATA_RATES -x BATON_REPETITIONS ${BATON_ALGORITHM:+-x BATON_ALGORITHM} ${BATON_KEEP_PLANS:+-x BATON_KEEP_PLANS} \
  "$bench_bin" "${sizes[@]}" 2> "$work/mpi.log" || {
  cat "$work/mpi.log" "$work/coordinator.log" >&2
  die "the run failed"
}
if [ -n "${REPORTS:-}" ]; then
  ip netns exec "$prefix-sw" python3 - "$BATON_API" > "$REPORTS" <<'PY'
import json, sys, urllib.request
api = "http://" + sys.argv[1]
for job in json.load(urllib.request.urlopen(api + "/v1/jobs"))["jobs"]:
    print(json.dumps(json.load(urllib.request.urlopen(api + "/v1/jobs/" + job["id"]))))
PY
fi
