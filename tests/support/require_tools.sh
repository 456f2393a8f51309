#!/usr/bin/env bash
# Runs a test only when the tools it needs are on PATH (cmake/BatonTest.cmake, NEEDS).
# A missing tool: the test is skipped, saying which tool and which Debian package of
# scripts/setup.sh holds it (exit 77, CTest's SKIP_RETURN_CODE; scripts/test.sh lists it
# with that line); under CI=true a failure instead, since CI runs setup first and every
# tool must then be there. With --root, a test that needs root: skipped without it, even
# under CI=true (CI need not run as root).
#   require_tools.sh [--root] TOOL... -- COMMAND [ARGUMENT...]
#   require_tools.sh --configured-without WHAT PACKAGE   (a part CMake did not build)
set -uo pipefail

# The package of scripts/setup.sh that installs each tool a test may need.
package_of() {
  case "$1" in
    etcd) echo etcd-server ;;
    etcdctl) echo etcd-client ;;
    promtool) echo prometheus ;;
    chromium) echo chromium ;;
    python3) echo python3 ;;
    openssl) echo openssl ;;
    mpirun) echo openmpi-bin ;;
    pkg-config) echo pkg-config ;;
    systemd-analyze | systemd-sysusers | systemd-tmpfiles) echo systemd ;;
    *) return 1 ;;
  esac
}

# Says why the test cannot run; exits 77 (skipped), or 1 under CI=true.
cannot_run() {
  if [ "${CI:-}" = true ]; then
    echo "FAILED (CI=true): $1; CI runs scripts/setup.sh first, so it must be there" >&2
    exit 1
  fi
  echo "skipped: $1"
  exit 77
}

if [ "${1:-}" = --configured-without ]; then
  [ $# -eq 3 ] || { echo "require_tools.sh: --configured-without takes WHAT and PACKAGE" >&2; exit 2; }
  cannot_run "this tree was configured without $2 (package $3; scripts/setup.sh installs it, then configure again)"
fi

if [ "${1:-}" = --root ]; then
  shift
  if [ "$EUID" -ne 0 ]; then
    echo "skipped: needs root"
    exit 77
  fi
fi
missing=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  package=$(package_of "$1") || { echo "require_tools.sh: no package known for tool '$1' (add it to package_of)" >&2; exit 2; }
  command -v "$1" >/dev/null || missing+=("$1 (package $package)")
  shift
done
[ "${1:-}" = -- ] && [ $# -ge 2 ] || { echo "require_tools.sh: expected TOOL... -- COMMAND [ARGUMENT...]" >&2; exit 2; }
shift
if [ ${#missing[@]} -gt 0 ]; then
  printf -v list '%s, ' "${missing[@]}"
  cannot_run "not on PATH: ${list%, }; scripts/setup.sh installs it"
fi
exec "$@"
