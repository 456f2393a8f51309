# Shared by the namespace tests (sourced): how they end, whether this machine can run
# them at all (a test that cannot run exits 77, which CTest reports as skipped), and
# their namespaces and daemons.
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAILED: $*" >&2; exit 1; }
# A tool of scripts/setup.sh's missing: skipped, but a failure under CI=true, where setup
# ran first (only what needs root stays skipped there).
missing_tool() {
  [ "${CI:-}" != true ] || fail "$* (CI=true: scripts/setup.sh ran, so it must be there)"
  skip "$*"
}

# Skips unless we are root and the kernel makes namespaces, veth pairs and tbf qdiscs.
require_netns() {
  [ "$(id -u)" -eq 0 ] || skip "needs root to create network namespaces, veth pairs and tc qdiscs"
  command -v ip >/dev/null && command -v tc >/dev/null || missing_tool "iproute2 (ip, tc) is not installed"
  local probe=btprobe$$
  ip netns add "$probe" 2>/dev/null || skip "'ip netns add' failed: no network namespaces here"
  if ! { ip -n "$probe" link add probe0 type veth peer name probe1 &&
         tc -n "$probe" qdisc add dev probe0 root tbf rate 1mbit burst 3028 limit 30000; } 2>/dev/null; then
    ip netns del "$probe"
    skip "this kernel cannot make veth pairs or tbf qdiscs"
  fi
  ip netns del "$probe"
}

# The test's namespaces and daemons (after `use_namespaces TOPOLOGY PREFIX WORK`): TOPOLOGY
# is cluster (scripts/netns-cluster.sh) or star (scripts/netns-star.sh), PREFIX names its
# namespaces, WORK holds the daemons' files. Both are torn down and WORK removed when the
# test exits, however it exits.
use_namespaces() {
  topology=$1 prefix=$2 work=$3
  trap 'daemons stop || true; "$topology" down || true; rm -rf "$work"' EXIT
}
cluster() { "$repo/scripts/netns-cluster.sh" "$@" --prefix "$prefix"; }
star() { "$repo/scripts/netns-star.sh" "$@" --prefix "$prefix"; }
daemons() { "$repo/scripts/netns-daemons.sh" "$1" "$work" --prefix "$prefix" "${@:2}"; }
traffic() { python3 "$repo/scripts/netns_traffic.py" "$@"; }
