#include "agent/step_barrier.h"

#include "transport/errors.h"

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>

#include <limits>

namespace baton::agent {
namespace {

constexpr std::uint64_t vote_flag = std::uint64_t{1} << 62;
constexpr std::uint64_t down_bit = 2;
constexpr std::uint64_t ok_bit = 1;

// What an empty vote flow is sent from: no byte is ever read, any offset is inside it.
class NoBytes final : public transport::Source {
 public:
  std::uint64_t size() const override { return std::numeric_limits<std::uint64_t>::max(); }
  std::error_code read(std::uint64_t, std::span<std::byte>) const override {
    return std::make_error_code(std::errc::invalid_argument);
  }
};

// Where an empty vote flow goes: it writes nothing.
class NoWrites final : public transport::Sink {
 public:
  std::error_code write(std::uint64_t, std::span<const std::byte>) override {
    return std::make_error_code(std::errc::invalid_argument);
  }
};

NoWrites no_writes;

}  // namespace

StepBarrier::StepBarrier(transport::Context& context, std::uint64_t job_number, BarrierMembers members,
                         std::shared_ptr<PeerLinks> links)
    : context_(context), job_number_(job_number), members_(std::move(members)),
      partners_(protocol::barrier_partners(members_.rank, members_.count)), links_(std::move(links)),
      changed_(context.executor()) {
  for (const auto& [rank, member] : members_.by_rank) {
    if (rank != members_.rank) ranks_[member.node()] = rank;
  }
}

bool StepBarrier::carries_vote(const transport::FlowSpec& flow) noexcept { return flow.offset >= vote_flag; }

std::string StepBarrier::member_name(std::size_t rank) const {
  return "rank " + std::to_string(rank) + " (" + members_.by_rank.at(rank).node() + ")";
}

BarrierVotes& StepBarrier::votes(const Key& key) { return votes_.try_emplace(key, partners_).first->second; }

transport::ResolvedSink StepBarrier::receive(const transport::FlowSpec& flow, const std::string& sender) {
  const auto refused = [&](const std::string& why) {
    return transport::ResolvedSink{
        nullptr, "barrier vote of step " + std::to_string(flow.step) + " from " + sender + ": " + why, nullptr};
  };
  const std::uint64_t bits = flow.offset - vote_flag;
  const std::uint64_t range = bits >> 2;
  if (flow.length != 0) return refused("not a vote (a vote is an empty flow)");
  if (range >= range_limit) return refused("range " + std::to_string(range) + " is past the ranges a release names");
  const auto member = ranks_.find(sender);
  if (member == ranks_.end()) return refused("the sender is not a barrier partner of this member");
  const Key key{range, flow.step};
  if (range_ == range && passed_ && key <= *passed_) return refused("that barrier was passed already");
  // Votes wait here only for a barrier this member has not reached yet: the one it is in
  // and the first of a range whose release has not come. A member naming many more is
  // refused, so that it cannot fill the agent's memory.
  if (!votes_.contains(key) && votes_.size() >= max_pending_barriers)
    return refused(std::to_string(votes_.size()) + " barriers already wait for this member");
  const bool value = (bits & ok_bit) != 0;
  BarrierVotes& v = votes(key);
  const std::optional<error::Refusal> wrong =
      (bits & down_bit) != 0 ? v.parent_decided(member->second, value) : v.child_voted(member->second, value);
  if (wrong) return refused(wrong->reason);
  changed_.notify();
  return transport::ResolvedSink{&no_writes, {}, nullptr};
}

void StepBarrier::start_range(std::uint64_t range) {
  range_ = range;
  passed_.reset();
  aborted_.reset();
  std::erase_if(votes_, [&](const auto& entry) { return entry.first.first != range; });
  std::erase_if(send_failures_, [&](const auto& entry) { return entry.first.first != range; });
}

void StepBarrier::abort(const std::string& reason) {
  aborted_ = reason;
  changed_.notify();
}

asio::awaitable<std::optional<error::Refusal>> StepBarrier::pass(std::uint64_t range, std::uint32_t step, bool ok,
                                                                 std::chrono::steady_clock::time_point deadline) {
  const Key key{range, step};
  if (range_ != range) start_range(range);
  votes(key).own_vote(ok);
  bool sent_up = false;
  for (;;) {
    if (aborted_) co_return *aborted_;
    if (range_ != range) co_return "range " + std::to_string(range) + " ended: a new range began";
    BarrierVotes& v = votes(key);
    if (const auto failed = send_failures_.find(key); failed != send_failures_.end()) co_return failed->second;
    if (!sent_up && partners_.parent) {
      if (const std::optional<bool> subtree = v.subtree_vote()) {
        send(*partners_.parent, key, false, *subtree);
        sent_up = true;
      }
    }
    if (const std::optional<bool> go = v.decision()) {
      decided_at_ = std::chrono::steady_clock::now();
      for (const std::size_t child : partners_.children) send(child, key, true, *go);
      passed_ = key;
      votes_.erase(key);
      if (*go) co_return std::nullopt;
      co_return "step " + std::to_string(step) + " failed on a member of the job (each says why)";
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      std::string why = "the barrier after step " + std::to_string(step) + " timed out waiting for ";
      const std::vector<std::size_t> missing = v.children_missing();
      if (!missing.empty()) {
        for (std::size_t c = 0; c < missing.size(); ++c) why += (c == 0 ? "" : ", ") + member_name(missing[c]);
        why += "'s vote";
      } else {
        why += "the decision from " + member_name(*partners_.parent);
      }
      co_return why;
    }
    co_await changed_.wait_until(deadline);
  }
}

void StepBarrier::vote_no(std::uint64_t range, std::uint32_t step, std::chrono::steady_clock::time_point deadline) {
  asio::co_spawn(
      context_.executor(),
      [self = shared_from_this(), range, step, deadline] { return self->pass_no(range, step, deadline); },
      asio::detached);
}

asio::awaitable<void> StepBarrier::pass_no(std::uint64_t range, std::uint32_t step,
                                           std::chrono::steady_clock::time_point deadline) {
  co_await pass(range, step, false, deadline);
}

void StepBarrier::send(std::size_t to, const Key& key, bool down, bool value) {
  asio::co_spawn(
      context_.executor(),
      [self = shared_from_this(), to, key, down, value] { return self->send_flow(to, key, down, value); },
      asio::detached);
}

asio::awaitable<void> StepBarrier::send_flow(std::size_t to, Key key, bool down, bool value) {
  const protocol::Member& member = members_.by_rank.at(to);
  std::string failure;
  // A connection that could not be made carried nothing: tried again, twice (a vote that
  // may have arrived is never sent again: its receiver would refuse it as a second vote).
  error::Result<Link> link = co_await links_->acquire(member.node(), member.data_address());
  for (int again = 0; again < 2 && !link.ok(); ++again)
    link = co_await links_->acquire(member.node(), member.data_address());
  if (!link.ok()) {
    failure = link.detail;
  } else {
    const NoBytes none;
    transport::SteadyPacer unpaced({.rate_bytes_per_second = 0, .burst_bytes = 0}, nullptr,
                                   std::chrono::steady_clock::now());
    const transport::FlowSpec spec{
        .job = job_number_,
        .step = key.second,
        .offset = vote_flag | (key.first << 2) | (down ? down_bit : 0) | (value ? ok_bit : 0),
        .length = 0};
    const transport::FlowReport sent =
        co_await transport::send_flow(link.value.connection(), spec, none, unpaced, context_.pool(),
                                      {.max_chunk = 1, .frame_timeout = context_.options().frame_timeout});
    if (sent.ok()) link.value.keep();
    else failure = sent.describe();
  }
  // A vote that did not arrive stalls the barrier: the pass waiting for it ends now, naming it.
  if (!failure.empty() && !(passed_ && key <= *passed_ && range_ == key.first)) {
    send_failures_.emplace(key, "the barrier's " + std::string(down ? "decision" : "vote") + " to " + member_name(to) +
                                    " could not be sent: " + failure);
    changed_.notify();
  }
}

}  // namespace baton::agent
