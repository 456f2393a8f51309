#!/usr/bin/env bash
# Standby coordinators on etcd, measured (docs/ha.md, "Timings"): a 3-member etcd cluster,
# real coordinators and agents on loopback, every destination byte compared with the
# sources. Prints one JSON line per measurement (bench/ha_bench.py says what each is):
#   step      one job of nodes^2 steps (10 x 10 agents, k = 1: 100 steps) on the SQLite
#             journal and on the etcd journal, alternating, side by side; per-step time
#   failover  the leader killed (SIGKILL) mid-job; seconds to the new leader's first release
#   fig16     a Fig.-16-size job (10 x 10 agents, pairs of 1-4 MB, k = 5, about 10 s) with
#             the leader killed when half its bytes are done, against the same without
#
#   bench/ha.sh [--bin BUILD_DIR] [--failovers N] [--step-runs R] [--nodes N] [--ttl T]
#               [--fig16-runs F] [--only failover|step|fig16] [--out FILE]
#
# Defaults: BUILD_DIR = build/ci (needs baton-coordinator and baton-agent), N = 10, R = 3,
# 10 nodes, T = 2 s, F = 2, FILE = docs/bench/ha.jsonl (the lines are also printed). Runs
# at nice 19: on a shared machine it takes what is left. About 6 minutes. Needs
# /usr/bin/etcd (Debian etcd-server); no root.
set -euo pipefail
cd "$(dirname "$0")/.."

out=docs/bench/ha.jsonl
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || { echo "ha.sh: --out needs a file" >&2; exit 2; }; out=$2; shift 2 ;;
    --bin|--failovers|--step-runs|--nodes|--ttl|--fig16-runs|--only)
      [ $# -ge 2 ] || { echo "ha.sh: $1 needs a value" >&2; exit 2; }; args+=("$1" "$2"); shift 2 ;;
    *) echo "ha.sh: unknown option $1 (see the header of bench/ha.sh)" >&2; exit 2 ;;
  esac
done
mkdir -p "$(dirname "$out")"
nice -n 19 python3 bench/ha_bench.py "${args[@]}" | tee "$out"
