// The agent's own checks on a plan before it accepts it (docs/runtime.md, "The agent's
// checks on a plan"; docs/agent.md).
#pragma once

#include "agent/data_root.h"
#include "protocol/baton.pb.h"

#include <string>

namespace baton::agent {

// "" when the agent may run `plan` under `root`, otherwise one line naming the first
// problem found, with its step and chunk when it has them, e.g.
// "step 2, chunk 1 (transfer 7): source range [4096, 8192) is outside src/x.bin (6000 bytes)".
// Chunks are numbered within their step, across its flows in plan order.
std::string check_plan(const protocol::Plan& plan, const DataRoot& root);

}  // namespace baton::agent
