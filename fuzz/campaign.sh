#!/usr/bin/env bash
# Fuzzes every target (or those named) one after another, each until it has run RUNS
# inputs or SECONDS have passed, at the lowest CPU priority, and prints one JSON line per
# target with libFuzzer's final figures (docs/fuzzing.md, "Running a campaign").
#   fuzz/campaign.sh [--runs N] [--seconds S] [--timeout S] [--build DIR] [TARGET ...]
# Needs the fuzz tree (cmake --preset fuzz && cmake --build --preset fuzz). The committed
# corpus is unpacked into DIR/seeds/TARGET (fuzz/corpus.sh); new inputs go to
# DIR/corpus/TARGET; findings to DIR/TARGET-crash-* (and timeout-, oom-); each run's log to
# DIR/campaign/TARGET.log. Afterwards the new inputs that add coverage are merged into the
# seeds (-merge=1, logged to DIR/campaign/TARGET.merge.log) and, when there are any,
# fuzz/corpus/TARGET.tar.gz is re-packed from them: commit it with fuzz/corpus/index.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=10000000
seconds=3600
build=build/fuzz
# libFuzzer's per-input limit is wall-clock time: at nice 19 on a loaded machine an input
# can wait seconds for a core, so a 10 s limit reports starvation as a hang (seen here).
timeout=60
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --seconds) seconds="$2"; shift ;;
    --build) build="$2"; shift ;;
    --timeout) timeout="$2"; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    -*) echo "campaign.sh: unknown option '$1' (--runs N, --seconds S, --timeout S, --build DIR)" >&2; exit 2 ;;
    *) targets+=("$1") ;;
  esac
  shift
done
if [ ${#targets[@]} -eq 0 ]; then
  for f in fuzz/*_fuzz.cpp; do t=$(basename "$f" _fuzz.cpp); targets+=("$t"); done
fi
mkdir -p "$build/campaign"
for t in "${targets[@]}"; do
  binary="$build/fuzz/${t}_fuzz"
  [ -x "$binary" ] || { echo "campaign.sh: no $binary (build the fuzz tree: cmake --build --preset fuzz)" >&2; exit 2; }
  seeds="$build/seeds/$t"
  fuzz/corpus.sh unpack "$t" "$seeds"
  seeds_before=$(find "$seeds" -type f | wc -l)
  mkdir -p "$build/corpus/$t"
  log="$build/campaign/$t.log"
  started=$(date +%s)
  touch "$build/campaign/$t.started"
  status=0
  nice -n 19 "$binary" -runs="$runs" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/$t-" "$build/corpus/$t" "$seeds" >"$log" 2>&1 || status=$?
  elapsed=$(( $(date +%s) - started ))
  nice -n 19 "$binary" -merge=1 -timeout="$timeout" -rss_limit_mb=2048 "$seeds" "$build/corpus/$t" \
    >"$build/campaign/$t.merge.log" 2>&1
  added=$(( $(find "$seeds" -type f | wc -l) - seeds_before ))
  if [ "$added" -gt 0 ]; then fuzz/corpus.sh pack "$seeds" "$t" >&2; fi
  # libFuzzer's final stats: stat::number_of_executed_units, and cov/ft of its last status line.
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  # A finding is a crash, leak, timeout or out-of-memory input; a slow unit is only a note
  # (libFuzzer writes one for any input slower than its best so far, load included).
  new_artifacts() { find "$build" -maxdepth 1 -name "$t-$1*" -newer "$build/campaign/$t.started" 2>/dev/null | wc -l; }
  findings=$(( $(new_artifacts crash-) + $(new_artifacts leak-) + $(new_artifacts timeout-) + $(new_artifacts oom-) ))
  slow=$(new_artifacts slow-unit-)
  printf '{"target": "%s", "executions": %s, "seconds": %s, "cov": %s, "ft": %s, "exit": %s, "findings": %s, "slow_units": %s, "corpus_added": %s}\n' \
    "$t" "${execs:-0}" "$elapsed" "${cov:-0}" "${ft:-0}" "$status" "$findings" "$slow" "$added"
done
