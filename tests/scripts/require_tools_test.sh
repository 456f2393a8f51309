#!/usr/bin/env bash
# tests/support/require_tools.sh, as CMake's NEEDS uses it, on a PATH that holds promtool
# but not etcd: a test whose tools are there runs; one missing etcd is reported skipped by
# CTest with its reason (scripts/ctest_summary.py lists it), and fails under CI=true; a part
# CMake did not build is the same; a tool of no known package is a usage error.
#   require_tools_test.sh SOURCE_DIR
set -euo pipefail
unset CI  # set below where a case needs it; this test also runs under CI=true
source_dir=$1
require=$source_dir/tests/support/require_tools.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
ln -s /bin/true "$work/bin/promtool"
ctest=$(command -v ctest) cmake=$(command -v cmake) python=$(command -v python3)
fail() { echo "require_tools_test.sh: $*" >&2; exit 1; }

# Runs require_tools.sh on the narrow PATH: "STATUS|STDOUT".
run() { local out status=0; out=$(PATH=$work/bin /bin/bash "$require" "$@" 2>/dev/null) || status=$?; echo "$status|$out"; }

[ "$(run promtool -- /bin/echo ran)" = "0|ran" ] || fail "a test with its tool did not run: $(run promtool -- /bin/echo ran)"
want="77|skipped: not on PATH: etcd (package etcd-server); scripts/setup.sh installs it"
[ "$(run etcd promtool -- /bin/echo ran)" = "$want" ] || fail "without etcd: $(run etcd promtool -- /bin/echo ran)"
[ "$(CI=true run etcd -- /bin/echo ran)" = "1|" ] || fail "without etcd under CI=true: $(CI=true run etcd -- /bin/echo ran)"
[ "$(CI=true run --configured-without "a Fortran compiler" gfortran)" = "1|" ] || fail "--configured-without under CI=true"
if [ "$(id -u)" -ne 0 ]; then  # root-only: skipped without root, under CI=true too
  [ "$(CI=true run --root -- /bin/echo ran)" = "77|skipped: needs root" ] || fail "--root: $(CI=true run --root -- /bin/echo ran)"
else
  [ "$(CI=true run --root -- /bin/echo ran)" = "0|ran" ] || fail "--root as root: $(CI=true run --root -- /bin/echo ran)"
fi
[ "$(run no-such-tool -- /bin/echo ran)" = "2|" ] || fail "an unknown tool: $(run no-such-tool -- /bin/echo ran)"
[ "$(run etcd /bin/echo ran)" = "2|" ] || fail "no -- before the command"

# Through CTest, as the suites run: skipped with the reason, or failed under CI=true.
cat > "$work/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(needs NONE)
enable_testing()
add_test(NAME has_promtool COMMAND /bin/bash $require promtool -- /bin/true)
add_test(NAME needs_etcd COMMAND /bin/bash $require etcd -- /bin/true)
add_test(NAME not_built COMMAND /bin/bash $require --configured-without "a Fortran compiler" gfortran)
set_tests_properties(has_promtool needs_etcd not_built PROPERTIES SKIP_RETURN_CODE 77)
CMAKE
"$cmake" -S "$work" -B "$work/build" >/dev/null
PATH=$work/bin "$ctest" --test-dir "$work/build" --output-junit "$work/junit.xml" >/dev/null ||
  fail "ctest failed without CI=true"
got=$("$python" "$source_dir/scripts/ctest_summary.py" skipped "$work/junit.xml")
want="  needs_etcd: skipped: not on PATH: etcd (package etcd-server); scripts/setup.sh installs it
  not_built: skipped: this tree was configured without a Fortran compiler (package gfortran; scripts/setup.sh installs it, then configure again)"
[ "$got" = "$want" ] || fail "$(printf 'ctest_summary.py skipped printed:\n%s\nexpected:\n%s' "$got" "$want")"
if CI=true PATH=$work/bin "$ctest" --test-dir "$work/build" >"$work/ci.out" 2>&1; then
  fail "ctest passed under CI=true without etcd"
fi
grep -q "2 tests failed" "$work/ci.out" || fail "$(printf 'under CI=true, expected 2 failures:\n%s' "$(cat "$work/ci.out")")"
echo "ok: run with the tool, skipped with the reason without it, failed under CI=true"
