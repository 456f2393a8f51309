#!/usr/bin/env bash
# Baton's C++ style (.clang-format), applied or checked with Debian's clang-format 14 (other
# versions format some lines differently, so the check would disagree with itself).
#   scripts/format.sh           reformat every tracked .cpp and .h file in place
#   scripts/format.sh --check   change nothing; list each difference and exit 1 if any
# scripts/test.sh runs the check.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=fix
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  *) echo "format.sh: unknown argument '$1' (use --check, or nothing to reformat)" >&2; exit 2 ;;
esac

clang_format=""
for candidate in clang-format-14 clang-format; do
  if command -v "$candidate" >/dev/null && "$candidate" --version | grep -q 'version 14\.'; then
    clang_format=$candidate
    break
  fi
done
if [ -z "$clang_format" ]; then
  echo "format.sh: clang-format 14 not found (Debian's clang-format package; scripts/setup.sh installs it)" >&2
  exit 2
fi

if [ "$mode" = fix ]; then
  git ls-files -z '*.cpp' '*.h' | xargs -0 "$clang_format" -i
  exit 0
fi
if ! git ls-files -z '*.cpp' '*.h' | xargs -0 "$clang_format" --dry-run -Werror; then
  echo "format.sh: the files above differ from .clang-format; run scripts/format.sh to fix them" >&2
  exit 1
fi
echo "format.sh: every .cpp and .h file follows .clang-format"
