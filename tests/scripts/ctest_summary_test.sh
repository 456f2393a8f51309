#!/usr/bin/env bash
# scripts/ctest_summary.py, as scripts/test.sh uses it, on a CTest project of five tests:
# one passes, one skips saying why, one skips without a word, one fails its first run and
# passes its second, one always fails. Run with --output-junit and --repeat until-pass:2,
# `skipped` must list exactly the two skipped ones, each with its reason, and `flaky` only
# the one that passed when run again.
#   ctest_summary_test.sh SOURCE_DIR
set -euo pipefail
source_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(summary NONE)
enable_testing()
add_test(NAME passes COMMAND sh -c "echo skip nothing here")
add_test(NAME skips_saying_why COMMAND sh -c "echo noise; echo 'skipped: no systemd as PID 1'; exit 77")
add_test(NAME skips_silently COMMAND sh -c "exit 77")
add_test(NAME fails_once COMMAND sh -c "[ -e $work/failed ] || { touch $work/failed; exit 1; }")
add_test(NAME always_fails COMMAND sh -c "echo Passed; exit 1")
set_tests_properties(skips_saying_why skips_silently PROPERTIES SKIP_RETURN_CODE 77)
CMAKE
cmake -S "$work" -B "$work/build" >/dev/null
if ctest --test-dir "$work/build" --repeat until-pass:2 --output-junit "$work/junit.xml" >"$work/output.txt" 2>&1; then
  echo "ctest passed with a test that always fails" >&2
  exit 1
fi
check() {
  local got
  got=$(python3 "$source_dir/scripts/ctest_summary.py" "$1" "$2")
  if [ "$got" != "$3" ]; then
    printf 'ctest_summary.py %s printed:\n%s\nexpected:\n%s\n' "$1" "$got" "$3" >&2
    exit 1
  fi
}
check skipped "$work/junit.xml" "  skips_saying_why: skipped: no systemd as PID 1
  skips_silently: SKIP_RETURN_CODE=77"
check flaky "$work/output.txt" "  fails_once: Failed, then passed"
echo "ok: both skipped tests listed with their reasons, and the one that passed when run again"
