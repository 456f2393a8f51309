#!/usr/bin/env bash
# Checks the C++ style (scripts/format.sh --check), builds Baton twice (warnings as errors;
# ASan+UBSan) and runs every test through CTest. The first tree also compiles each header on
# its own (cmake/HeaderCheck.cmake). Any of these failing fails the script.
#   scripts/test.sh            both builds
#   scripts/test.sh --fast     only the warnings-as-errors build
# Build trees: build/ci and build/asan. Extra arguments after -- go to ctest. At the end it
# lists every skipped test with the reason the test gave.
set -euo pipefail
cd "$(dirname "$0")/.."

builds=(ci asan)
ctest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --fast) builds=(ci) ;;
    --) shift; ctest_args=("$@"); break ;;
    *) echo "test.sh: unknown argument '$1' (use --fast, or -- followed by ctest arguments)" >&2; exit 2 ;;
  esac
  shift
done

jobs=$(nproc)
# The suites mostly wait (on processes, sockets, timeouts): twice as many as cores keeps the
# cores busier (docs/build.md, "The tests, two to a core").
test_jobs=$((2 * jobs))
status=0
# A style difference fails the run at the end, after the tests have said what they say.
echo "== style: scripts/format.sh --check"
format_status=0
scripts/format.sh --check || format_status=$?
skipped="" flaky=""
# ccache (when installed) keys objects on paths relative to this checkout, so a fresh clone
# anywhere on a machine that built Baton before reuses its objects: CI builds two trees.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
for b in "${builds[@]}"; do
  # The trees are CMakePresets.json's ci and asan (headers compile alone or not whatever the
  # flags: the ci tree checks them once); docs that name build/ci say `cmake --preset ci`.
  echo "== build/$b: configure and build"
  cmake --preset "$b" >/dev/null
  cmake --build "build/$b" -j "$jobs"
  echo "== build/$b: tests"
  junit="$PWD/build/$b/ctest-junit.xml" output="build/$b/ctest-output.txt"
  rm -f "$junit"
  # A suite that fails runs once more: on a shared 2-core machine a suite of real processes
  # now and then loses a race to the load. One that passes then is listed at the end as
  # flaky (its failed run's output is above); one that fails twice fails the run
  # (docs/build.md, "A failed suite runs again").
  ctest --test-dir "build/$b" --output-on-failure -j "$test_jobs" --repeat until-pass:2 --output-junit "$junit" \
    "${ctest_args[@]}" 2>&1 | tee "$output" || status=${PIPESTATUS[0]}
  [ -s "$junit" ] && skipped+="$(scripts/ctest_summary.py skipped "$junit" | sed "s|^  |  build/$b: |")"$'\n'
  flaky+="$(scripts/ctest_summary.py flaky "$output" | sed "s|^  |  build/$b: |")"$'\n'
  [ "$status" -eq 0 ] || break
done

# CTest names skipped tests in its summary without their reasons: say why each was skipped.
if [ -n "${skipped//$'\n'/}" ]; then
  echo "== skipped tests and why"
  printf '%s' "$skipped" | sed '/^$/d'
fi
if [ -n "${flaky//$'\n'/}" ]; then
  echo "== flaky: failed, then passed when run again (each failed run's output is above)"
  printf '%s' "$flaky" | sed '/^$/d'
fi
if [ "$format_status" -ne 0 ]; then
  echo "== style: files differ from .clang-format (scripts/format.sh fixes them)" >&2
  [ "$status" -ne 0 ] || status=$format_status
fi
exit "$status"
