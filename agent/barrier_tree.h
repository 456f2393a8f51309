// The barrier between two self-paced steps (docs/runtime.md, "Self-paced steps"), as
// logic only: who a member exchanges votes with, and one barrier's votes on one member.
//
// The members, in rank order, form a tree of fan-out barrier_fan_out (rank r's parent is
// (r - 1) / fan_out). Each member votes whether its part of the step was right once it
// ended; a member passes its subtree's vote (its own AND every child's) up to its parent;
// the root's subtree vote is the decision, which goes down the tree to every member. No
// member hears the decision before every member voted, so the papers' lockstep holds: no
// flow of the next step starts before every flow of this one ended on every member.
// 2 (n - 1) messages a barrier, 2 ceil(log_fan_out n) hops deep (a dissemination barrier
// sends n ceil(log2 n), which on a machine shared by many agents costs more than it saves).
#pragma once

#include "error/refusal.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace baton::agent {

inline constexpr std::size_t barrier_fan_out = 4;

struct BarrierPartners {
  std::optional<std::size_t> parent;  // none for the root (rank 0)
  std::vector<std::size_t> children;  // in rank order
};

// Rank `rank`'s partners among `members` (rank < members).
BarrierPartners barrier_partners(std::size_t rank, std::size_t members, std::size_t fan_out = barrier_fan_out);

// Messages on the longest path of one barrier: up to the root and down again.
std::size_t barrier_hops(std::size_t members, std::size_t fan_out = barrier_fan_out);

// One barrier's votes on one member.
class BarrierVotes {
 public:
  explicit BarrierVotes(BarrierPartners partners);

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
  const BarrierPartners& partners() const noexcept { return partners_; }

 private:
  BarrierPartners partners_;
  std::vector<std::optional<bool>> children_;  // by position in partners_.children
  std::optional<bool> own_;
  std::optional<bool> decided_;
};

}  // namespace baton::agent
