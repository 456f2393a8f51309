// What one member of a self-paced job needs of its plan's Plan.members (docs/runtime.md,
// "Self-paced steps"): its rank, the job's member count, and where its barrier partners
// (protocol/barrier_partners.h) listen. A plan lists them in one of two forms: with
// Plan.member_count, this member and its partners only, each with its rank (what the
// coordinator sends: a plan stays the same size at any member count); without, every
// member in rank order.
#pragma once

#include "error/refusal.h"
#include "protocol/baton.pb.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace baton::agent {

struct BarrierMembers {
  std::size_t rank = 0;                             // this member's
  std::size_t count = 0;                            // the job's members
  std::map<std::size_t, protocol::Member> by_rank;  // this member and its partners
};

// Reads node `self`'s barrier members from `plan` (which lists some) into `out`; or, reading
// nothing, why they are wrong: a member without a node or a data address, a node or a rank
// named twice, a rank past the count, `self` not named, a partner missing or a member
// listed that is not one.
std::optional<error::Refusal> read_barrier_members(const protocol::Plan& plan, const std::string& self,
                                                   BarrierMembers& out);

}  // namespace baton::agent
