#!/usr/bin/env bash
# The main job: builds Baton (build/release) and plans a redistribution between two
# 4-node clusters with every algorithm, printing cost beside the lower bound.
# (It becomes a real transfer between local agents when the runtime lands.)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DBATON_BUILD_TESTS=OFF >/dev/null
cmake --build build/release -j "$(nproc)" --target batonctl
batonctl=build/release/coordinator/batonctl/batonctl
problem=${1:-examples/redistribution-platform.json}
echo "Planning $problem"
printf '%-12s %6s %12s %14s\n' algorithm steps cost_s lower_bound_s
for algo in oggp ggp h-weight h-degree all-at-once; do
  "$batonctl" plan redistribution "$problem" --algo "$algo" > "build/release/plan-$algo.json"
  python3 - "build/release/plan-$algo.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
print(f"{p['algorithm']:<12} {len(p['steps']):>6} {p['cost']:>12.4f} {p['lower_bound']:>14.4f}")
PY
done
echo "Plans written to build/release/plan-*.json (all-at-once ignores k: shown for comparison)."
