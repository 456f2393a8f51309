// Judging one attempt at a step (docs/runtime.md, "Steps"): from what the nodes reported
// and which agents are alive, whether the step is done, and if not, why, naming each node.
#pragma once

#include "error/refusal.h"
#include "protocol/baton.pb.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace baton::coordinator {

// Nothing when every node of `nodes` reported the step ok and the senders' and receivers'
// digests agree (digest_match.h); else one clause per node that failed: its own error,
// "is dead" for a dead agent without a report, "did not report" for a live one.
// When the attempt was `cut_short` (another node's failure ended it early), a live node's
// missing report is no fault of its own and is not named.
std::optional<error::Refusal> judge_attempt(const std::vector<std::string>& nodes,
                                            const std::map<std::string, protocol::StepReport>& reports,
                                            const std::function<bool(const std::string& node)>& alive, bool cut_short);

}  // namespace baton::coordinator
