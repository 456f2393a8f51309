#include "agent/barrier_members.h"

#include "protocol/barrier_partners.h"

#include <set>

namespace baton::agent {

std::optional<error::Refusal> read_barrier_members(const protocol::Plan& plan, const std::string& self,
                                                   BarrierMembers& out) {
  using std::to_string;
  const bool partners_only = plan.member_count() > 0;
  const std::size_t count = partners_only ? plan.member_count() : static_cast<std::size_t>(plan.members_size());
  std::map<std::size_t, protocol::Member> by_rank;
  std::set<std::string> nodes;
  std::optional<std::size_t> own;
  for (int i = 0; i < plan.members_size(); ++i) {
    const protocol::Member& member = plan.members(i);
    const std::string at = "plan's members: member " + to_string(i);
    if (member.node().empty() || member.data_address().empty()) return at + " lacks a node or a data address";
    // Without a count the list is every member in rank order, and a rank, if given, is its place.
    if (!partners_only && member.rank() != 0 && member.rank() != static_cast<std::size_t>(i))
      return at + " names rank " + to_string(member.rank()) +
             ", not its place in the list (the plan has no member_count)";
    const std::size_t rank = partners_only ? member.rank() : static_cast<std::size_t>(i);
    if (rank >= count) return at + " names rank " + to_string(rank) + " of " + to_string(count) + " members";
    if (!nodes.insert(member.node()).second) return "plan's members: node " + member.node() + " is named twice";
    if (!by_rank.emplace(rank, member).second) return "plan's members: rank " + to_string(rank) + " is named twice";
    if (member.node() == self) own = rank;
  }
  if (!own) return "plan's members do not name this node (" + self + ")";
  // This member and its partners, exactly: a partner missing would leave its barrier
  // waiting, a member that is not one is a sign the plan was meant for another node.
  const protocol::BarrierPartners partners = protocol::barrier_partners(*own, count);
  std::set<std::size_t> needed(partners.children.begin(), partners.children.end());
  needed.insert(*own);
  if (partners.parent) needed.insert(*partners.parent);
  for (const std::size_t rank : needed) {
    if (!by_rank.contains(rank))
      return "plan's members lack rank " + to_string(rank) + ", a barrier partner of this node's rank " +
             to_string(*own);
  }
  if (partners_only) {
    for (const auto& [rank, member] : by_rank) {
      if (!needed.contains(rank))
        return "plan's members list rank " + to_string(rank) + " (" + member.node() +
               "), not a barrier partner of this node's rank " + to_string(*own);
    }
  } else {
    std::erase_if(by_rank, [&](const auto& entry) { return !needed.contains(entry.first); });
  }
  out = BarrierMembers{.rank = *own, .count = count, .by_rank = std::move(by_rank)};
  return std::nullopt;
}

}  // namespace baton::agent
