// One barrier's votes on one member, as logic only (docs/runtime.md, "Self-paced steps"):
// the tree is protocol/barrier_partners.h's. Each member votes whether its part of the step
// was right once it ended; a member passes its subtree's vote (its own AND every child's) up
// to its parent; the root's subtree vote is the decision, which goes down the tree to every
// member. No member hears the decision before every member voted, so the papers' lockstep
// holds: no flow of the next step starts before every flow of this one ended on every member.
#pragma once

#include "error/refusal.h"
#include "protocol/barrier_partners.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace baton::agent {

// One barrier's votes on one member.
class BarrierVotes {
 public:
  explicit BarrierVotes(protocol::BarrierPartners partners);

  // A child's vote arrived: refused when `rank` is not a child or voted already.
  std::optional<error::Refusal> child_voted(std::size_t rank, bool ok);
  // This member's own vote (once).
  void own_vote(bool ok);
  // The parent's decision arrived: refused from any other rank, or a second time.
  std::optional<error::Refusal> parent_decided(std::size_t rank, bool go);

  // Once this member and every child voted: their AND (what goes to the parent).
  std::optional<bool> subtree_vote() const;
  // The barrier's outcome on this member: the root's subtree vote, or the parent's decision.
  std::optional<bool> decision() const;
  // The children whose vote has not arrived, and whether the own vote has.
  std::vector<std::size_t> children_missing() const;
  bool voted() const noexcept { return own_.has_value(); }
  const protocol::BarrierPartners& partners() const noexcept { return partners_; }

 private:
  protocol::BarrierPartners partners_;
  std::vector<std::optional<bool>> children_;  // by position in partners_.children
  std::optional<bool> own_;
  std::optional<bool> decided_;
};

}  // namespace baton::agent
