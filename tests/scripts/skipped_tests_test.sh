#!/usr/bin/env bash
# scripts/skipped_tests.py, as scripts/test.sh uses it: a CTest project of three tests (one
# passes, one skips saying why, one skips without a word) run with --output-junit; the
# script must list exactly the two skipped ones, each with its reason.
#   skipped_tests_test.sh SOURCE_DIR
set -euo pipefail
source_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(skips NONE)
enable_testing()
add_test(NAME passes COMMAND sh -c "echo skip nothing here")
add_test(NAME skips_saying_why COMMAND sh -c "echo noise; echo 'skipped: no systemd as PID 1'; exit 77")
add_test(NAME skips_silently COMMAND sh -c "exit 77")
set_tests_properties(skips_saying_why skips_silently PROPERTIES SKIP_RETURN_CODE 77)
CMAKE
cmake -S "$work" -B "$work/build" >/dev/null
ctest --test-dir "$work/build" --output-junit "$work/junit.xml" >/dev/null
got=$(python3 "$source_dir/scripts/skipped_tests.py" "$work/junit.xml")
want="  skips_saying_why: skipped: no systemd as PID 1
  skips_silently: SKIP_RETURN_CODE=77"
if [ "$got" != "$want" ]; then
  printf 'skipped_tests.py printed:\n%s\nexpected:\n%s\n' "$got" "$want" >&2
  exit 1
fi
echo "ok: both skipped tests listed with their reasons"
