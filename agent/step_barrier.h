// The barrier between two self-paced steps, over the data plane (docs/runtime.md,
// "Self-paced steps"): the votes and decisions of barrier_votes.h, each carried as an empty
// flow of the job's step to the partner, over the kept connections (agent/peer_links.h).
// An empty flow is begin, end and ack frames: authenticated, sealed in sequence and
// length-checked as every flow is (transport/flow.h), so a vote cannot be forged, replayed
// or redirected. Its begin frame's offset, in a range no planned chunk reaches (flag bit
// 62), says what it carries: the release's range number, up or down, ok or not.
//
// Votes that arrive before this member reaches the barrier are kept; those of an earlier
// range are dropped when a new range starts, and a vote for a barrier passed is refused.
//
// Lifetimes: made and owned (shared) by the job's step runner; a vote being sent keeps it
// alive. Threading: the context's executor.
#pragma once

#include "agent/barrier_members.h"
#include "agent/barrier_votes.h"
#include "agent/peer_links.h"
#include "agent/signal.h"
#include "error/refusal.h"
#include "protocol/baton.pb.h"
#include "transport/context.h"
#include "transport/flow.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace baton::agent {

class StepBarrier : public std::enable_shared_from_this<StepBarrier> {
 public:
  // Range numbers of a release (StepRelease.range) fit below this.
  static constexpr std::uint64_t range_limit = std::uint64_t{1} << 32;
  // The most barriers whose votes wait at one member (a few are ever due at once).
  static constexpr std::size_t max_pending_barriers = 16;

  // `members`: this member's rank and partners (agent/barrier_members.h); votes are sent
  // as `job_number`'s flows through `links`.
  StepBarrier(transport::Context& context, std::uint64_t job_number, BarrierMembers members,
              std::shared_ptr<PeerLinks> links);

  // Whether an announced flow carries a vote (else it carries planned chunks).
  static bool carries_vote(const transport::FlowSpec& flow) noexcept;
  // A vote or decision announced by node `sender`: the empty flow's sink, or why refused.
  transport::ResolvedSink receive(const transport::FlowSpec& flow, const std::string& sender);

  // A new range (StepRelease.range) begins: an abort of the one before is forgotten.
  void start_range(std::uint64_t range);
  // Votes `ok` for step `step` of range `range` and waits for the barrier's decision:
  // nothing when every member voted ok; else why not (a member's step failed, a vote that
  // could not be sent, `deadline` passed, or abort()).
  asio::awaitable<std::optional<error::Refusal>> pass(std::uint64_t range, std::uint32_t step, bool ok,
                                                      std::chrono::steady_clock::time_point deadline);
  // When this member learnt the last decision pass() returned: the root when it decided,
  // before it sent the decision down, so that every other member starts its next step
  // after that moment (docs/runtime.md, "Progress").
  std::chrono::steady_clock::time_point decided_at() const noexcept { return decided_at_; }
  // Votes no for step `step` of range `range` without waiting for the decision: a member
  // whose step failed reports at once, while its vote goes up the tree (a pass() of its
  // own, until the decision, `deadline`, an abort or the next range).
  void vote_no(std::uint64_t range, std::uint32_t step, std::chrono::steady_clock::time_point deadline);
  // Ends a pass() waiting now, and any later one of this range, with `reason`.
  void abort(const std::string& reason);

  std::size_t rank() const noexcept { return members_.rank; }

 private:
  using Key = std::pair<std::uint64_t, std::uint32_t>;  // range, step
  BarrierVotes& votes(const Key& key);
  void send(std::size_t to, const Key& key, bool down, bool value);
  asio::awaitable<void> pass_no(std::uint64_t range, std::uint32_t step,
                                std::chrono::steady_clock::time_point deadline);
  asio::awaitable<void> send_flow(std::size_t to, Key key, bool down, bool value);
  std::string member_name(std::size_t rank) const;

  transport::Context& context_;
  std::uint64_t job_number_;
  BarrierMembers members_;
  std::map<std::string, std::size_t> ranks_;  // this member's partners', by node
  protocol::BarrierPartners partners_;
  std::shared_ptr<PeerLinks> links_;
  std::map<Key, BarrierVotes> votes_;
  std::map<Key, std::string> send_failures_;
  std::optional<std::uint64_t> range_;  // the range begun last
  std::optional<Key> passed_;           // the barrier passed last
  std::chrono::steady_clock::time_point decided_at_{};
  std::optional<std::string> aborted_;
  Signal changed_;
};

}  // namespace baton::agent
