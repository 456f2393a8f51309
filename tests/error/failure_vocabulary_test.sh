#!/usr/bin/env bash
# docs/design.md, "One vocabulary": product code throws only error::Error and what derives
# from it (std::bad_alloc aside, the runtime's), and no exception class but error::Error
# derives from a standard one. Product code: every tracked .cpp and .h outside tests/,
# bench/ and fuzz/.
set -euo pipefail
cd "${1:?usage: failure_vocabulary_test.sh SOURCE_DIR}"

product=$(git ls-files '*.cpp' '*.h' | grep -Ev '^(tests|bench|fuzz)/' || true)
if [ -z "$product" ]; then
  echo "failure_vocabulary_test: no product files found under $PWD (not a git checkout?)" >&2
  exit 2
fi
status=0
# shellcheck disable=SC2086  # one word per path
thrown=$(grep -n 'throw std::' $product | grep -v 'throw std::bad_alloc()' || true)
if [ -n "$thrown" ]; then
  echo "throws of a standard exception (throw one of error/error.h's kinds instead):" >&2
  echo "$thrown" >&2
  status=1
fi
# shellcheck disable=SC2086
based=$(grep -nE '(class|struct) [A-Za-z_]+ *(final)? *: *(public )?std::[a-z_]*(error|exception|argument)\b' $product |
        grep -v '^error/error.h:' || true)
if [ -n "$based" ]; then
  echo "exception classes on a standard base (derive from error::Error or one of its kinds):" >&2
  echo "$based" >&2
  status=1
fi
exit $status
