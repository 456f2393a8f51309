#!/usr/bin/env bash
# The coupled handoff on one host with peers over the network and through shared memory,
# side by side (docs/transport.md, "Same-host peers"): bench/coupled_handoff_alternating.sh
# with BATON_SAME_HOST_MEMORY off and on; the handoffs are jobs (BATON_KEEP_PLANS=off), as
# when this was measured, unless BATON_KEEP_PLANS says otherwise.
#
#   bench/coupled_handoff_same_host.sh [BUILD_DIR] [ROUNDS] [MIB...]   (defaults: build/ci 2 1 64)
set -euo pipefail
export BATON_KEEP_PLANS=${BATON_KEEP_PLANS:-off}
exec "$(cd "$(dirname "$0")" && pwd)/coupled_handoff_alternating.sh" BATON_SAME_HOST_MEMORY "$@"
