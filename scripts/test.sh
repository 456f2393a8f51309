#!/usr/bin/env bash
# Builds Baton twice (warnings as errors; ASan+UBSan) and runs every test through CTest.
#   scripts/test.sh            both builds
#   scripts/test.sh --fast     only the warnings-as-errors build
# Build trees: build/ci and build/asan. Extra arguments after -- go to ctest.
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
# ccache (when installed) keys objects on paths relative to this checkout, so a fresh clone
# anywhere on a machine that built Baton before reuses its objects: CI builds two trees.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
for b in "${builds[@]}"; do
  case "$b" in
    ci)   flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DBATON_WERROR=ON) ;;
    asan) flags=(-DCMAKE_BUILD_TYPE=Debug -DBATON_WERROR=ON -DBATON_SANITIZE=ON) ;;
  esac
  echo "== build/$b: configure and build"
  cmake -S . -B "build/$b" -G Ninja "${flags[@]}" >/dev/null
  cmake --build "build/$b" -j "$jobs"
  echo "== build/$b: tests"
  ctest --test-dir "build/$b" --output-on-failure -j "$jobs" "${ctest_args[@]}"
done
