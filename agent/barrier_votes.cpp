#include "agent/barrier_votes.h"

#include <algorithm>
#include <string>

namespace baton::agent {

BarrierVotes::BarrierVotes(protocol::BarrierPartners partners)
    : partners_(std::move(partners)), children_(partners_.children.size()) {}

std::optional<error::Refusal> BarrierVotes::child_voted(std::size_t rank, bool ok) {
  const auto child = std::ranges::find(partners_.children, rank);
  if (child == partners_.children.end()) return "rank " + std::to_string(rank) + " is not a child of this member";
  std::optional<bool>& vote = children_[static_cast<std::size_t>(child - partners_.children.begin())];
  if (vote) return "rank " + std::to_string(rank) + " voted twice";
  vote = ok;
  return std::nullopt;
}

void BarrierVotes::own_vote(bool ok) {
  if (!own_) own_ = ok;
}

std::optional<error::Refusal> BarrierVotes::parent_decided(std::size_t rank, bool go) {
  if (partners_.parent != rank) return "rank " + std::to_string(rank) + " is not the parent of this member";
  if (decided_) return "the parent decided twice";
  decided_ = go;
  return std::nullopt;
}

std::optional<bool> BarrierVotes::subtree_vote() const {
  if (!own_) return std::nullopt;
  bool all = *own_;
  for (const std::optional<bool>& vote : children_) {
    if (!vote) return std::nullopt;
    all = all && *vote;
  }
  return all;
}

std::optional<bool> BarrierVotes::decision() const {
  if (!partners_.parent) return subtree_vote();
  return decided_;
}

std::vector<std::size_t> BarrierVotes::children_missing() const {
  std::vector<std::size_t> missing;
  for (std::size_t c = 0; c < children_.size(); ++c) {
    if (!children_[c]) missing.push_back(partners_.children[c]);
  }
  return missing;
}

}  // namespace baton::agent
