#include "coordinator/daemon/digest_match.h"

#include <tuple>

namespace baton::coordinator {
namespace {

using ChunkKey = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>;  // transfer, dst_offset, length

struct Seen {
  std::string node;
  std::uint64_t xxh3 = 0;
};

std::string describe(const ChunkKey& key) {
  const auto& [transfer, offset, length] = key;
  return "transfer " + std::to_string(transfer) + " [" + std::to_string(offset) + ", " +
         std::to_string(offset + length) + ")";
}

}  // namespace

std::optional<error::Refusal> match_digests(const std::map<std::string, protocol::StepReport>& reports) {
  std::map<ChunkKey, Seen> sent, landed;
  for (const auto& [node, report] : reports) {
    for (const protocol::ChunkDigest& d : report.sent())
      sent[{d.transfer(), d.dst_offset(), d.length()}] = {node, d.xxh3()};
    for (const protocol::ChunkDigest& d : report.digests()) {
      landed[{d.transfer(), d.dst_offset(), d.length()}] = {node, d.xxh3()};
    }
  }
  std::optional<error::Refusal> problems;
  for (const auto& [key, at] : landed) {
    const auto from = sent.find(key);
    if (from == sent.end()) {
      error::add_clause(problems, describe(key) + " landed on " + at.node + " but no sender reports sending it");
    } else if (from->second.xxh3 != at.xxh3) {
      error::add_clause(problems,
                        describe(key) + ": " + at.node + "'s digest differs from what " + from->second.node + " sent");
    }
  }
  for (const auto& [key, from] : sent) {
    if (!landed.contains(key))
      error::add_clause(problems, describe(key) + " sent by " + from.node + " but no receiver reports it");
  }
  return problems;
}

}  // namespace baton::coordinator
