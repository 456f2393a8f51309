// End to end, before a step is called done: every chunk a receiver reports as landed must
// carry the digest its sender reports having sent, and every chunk sent must have landed.
// The agents check each flow on the wire; this catches what they cannot: a receiver that
// took bytes from elsewhere, or a report that does not match its peer's.
#pragma once

#include "error/refusal.h"
#include "protocol/baton.pb.h"

#include <map>
#include <optional>
#include <string>

namespace baton::coordinator {

// Nothing when the step's reports agree, else one clause per disagreement, naming the transfer,
// the range and both nodes.
std::optional<error::Refusal> match_digests(const std::map<std::string, protocol::StepReport>& reports);

}  // namespace baton::coordinator
