#!/usr/bin/env bash
# Draws bench/scale.py's summary lines as issue 40 asks to judge them: the coordinator's
# CPU over the steps (a step) and the step period against N, log-log, beside curves that
# grow as N and as √N from the smallest N. Medians over the lines of each N; only the lines
# of the daemon's default heartbeat policy (--max-heartbeats-per-second not given), path
# self-paced.
#   bench/scale_chart.sh docs/bench/scale/heartbeat_policy.jsonl docs/bench/scale.svg   (or .png)
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: bench/scale_chart.sh SCALE.jsonl OUT.svg|OUT.png" >&2
  exit 2
fi
in=$1 out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$in" "$tmp" <<'PY'
import json, statistics, sys
rows = []
for line in open(sys.argv[1]):
    if not line.startswith("{"):
        continue
    r = json.loads(line)
    if (r.get("bench") == "scale" and r.get("path") == "self-paced" and r.get("max_heartbeats_per_second") is None
            and r.get("steps_cpu_ms_per_step") is not None):
        rows.append(r)
if not rows:
    sys.exit(f"scale_chart.sh: no self-paced summary line of the default heartbeat policy in {sys.argv[1]}")
by_n = {}
for r in rows:
    by_n.setdefault(r["agents"], []).append(r)
ns = sorted(by_n)
cpu = {n: statistics.median(r["steps_cpu_ms_per_step"] for r in by_n[n]) for n in ns}
period = {n: statistics.median(r["step_period_ms"] for r in by_n[n]) for n in ns}
with open(f"{sys.argv[2]}/scale.dat", "w") as f:
    for n in ns:
        f.write(f"{n} {cpu[n]} {period[n]} {cpu[ns[0]] * n / ns[0]} {cpu[ns[0]] * (n / ns[0]) ** 0.5} "
                f"{period[ns[0]] * n / ns[0]}\n")
PY
case "$out" in
  *.png) terminal='pngcairo size 1100,500 font "sans,11"' ;;
  *) terminal='svg size 900,420 dynamic font "sans,11"' ;;
esac
gnuplot <<GP
set terminal $terminal
set output "$out"
set logscale xy
set xrange [40:1600]
set xlabel "agents (N)"
set ylabel "ms"
set key top left
set grid
set title "The coordinator's CPU a step and the step period as N grows (self-paced, 1 KiB flows, 2 cores)"
plot "$tmp/scale.dat" using 1:2 with linespoints lw 2 title "coordinator CPU over the steps, a step", \
     "$tmp/scale.dat" using 1:4 with lines dashtype 2 title "CPU grown as N", \
     "$tmp/scale.dat" using 1:5 with lines dashtype 3 title "CPU grown as √N", \
     "$tmp/scale.dat" using 1:3 with linespoints lw 2 title "step period", \
     "$tmp/scale.dat" using 1:6 with lines dashtype 2 title "period grown as N"
GP
echo "wrote $out"
