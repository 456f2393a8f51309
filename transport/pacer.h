// Pacing: a token bucket per flow plus an optional aggregate cap per node.
//
// In the model of the scheduling papers a flow runs at d (the per-flow rate) and a node's
// flows together stay within its share of the backbone D. A FlowPacer grants bytes when
// its own bucket holds them and sends them when the node's bucket (if any) has paid for
// them, first come first served, so neither limit is ever exceeded and no flow starves.
// A flow may also be aimed at a planned end: its own rate then follows what is left over
// the time left, between a floor and the rate it was made with.
//
// Ownership: a FlowPacer keeps a plain pointer to its NodeCap; the NodeCap must outlive
// every FlowPacer using it. Threading: pacers and node caps are not thread-safe; all flows
// sharing a NodeCap must run on one io_context thread.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>

#include "transport/token_bucket.h"

namespace baton::transport {

struct PacerOptions {
  // Bytes per second; 0 = unpaced (no limit).
  std::uint64_t rate_bytes_per_second = 0;
  // Bucket size; 0 = default_burst(rate). Also the largest chunk a paced flow sends at once.
  std::uint64_t burst_bytes = 0;
};

// The default burst: 10 ms worth of the rate, at least 32 KiB, at most 1 GiB. Over any
// window of W seconds a paced flow then sends rate·W ± burst, i.e. ±1 % over one second
// from 3.2 MB/s up.
// send_flow sends chunks of at most a quarter of the burst (see flow_sender.cpp), so timer
// wake-ups up to 7.5 ms late cost no rate. The floor keeps chunks of 8 KiB or more: each is
// a frame with its own 56-byte header, and with a floor of 4 KiB a flow paced below 400 KB/s
// sent 1 KiB chunks, 5 % headers (docs/transport.md, "Chunks and their headers").
constexpr std::uint64_t default_burst(std::uint64_t rate_bytes_per_second) noexcept {
  return std::clamp<std::uint64_t>(rate_bytes_per_second / 100, 32 * 1024, 1ULL << 30);
}

// The most a paced flow sends at once: a quarter of its burst (see flow_sender.cpp).
constexpr std::uint64_t paced_piece(std::uint64_t burst) noexcept { return std::max<std::uint64_t>(burst / 4, 1); }

constexpr TokenBucketOptions bucket_options(PacerOptions options) noexcept {
  return {.rate_bytes_per_second = options.rate_bytes_per_second,
          .burst_bytes = options.burst_bytes != 0 ? options.burst_bytes : default_burst(options.rate_bytes_per_second)};
}

// The aggregate cap of one node, shared by all its flows.
template <class Clock>
class NodeCap {
 public:
  NodeCap(PacerOptions options, typename Clock::time_point now) : bucket_(bucket_options(options), now) {}
  TokenBucket<Clock>& bucket() noexcept { return bucket_; }

 private:
  TokenBucket<Clock> bucket_;
};

template <class Clock>
class FlowPacer {
 public:
  using time_point = typename Clock::time_point;
  using duration = typename Clock::duration;

  // `node` may be null (no aggregate cap). A rate of 0 in `flow` means no per-flow limit.
  FlowPacer(PacerOptions flow, NodeCap<Clock>* node, time_point now) : node_(node) {
    if (flow.rate_bytes_per_second != 0) {
      own_.emplace(bucket_options(flow), now);
      ceiling_ = own_->rate();
    }
  }

  bool paced() const noexcept { return own_.has_value() || node_ != nullptr; }

  // Empties the flow's own bucket, full on a new pacer, down to one piece (paced_piece):
  // call it before the first acquire. A sender does so for a new flow: a whole burst would leave at line rate and queue at the link's bottleneck,
  // and what comes after it waits, the acknowledgements the node sends for other flows
  // included (docs/transport.md, "A flow's first piece"). No-op without a rate of its own.
  void start_with_one_piece(time_point now) {
    if (own_) own_->consume(own_->burst() - paced_piece(own_->burst()), now);
  }

  // Aims the flow's next `bytes` at ending by `end` (docs/transport.md, "Pacing toward a
  // planned end"): from now on each acquire sets the flow's own rate to what is left of
  // them over the time left, at least `floor` and at most the rate the pacer was made with
  // (past `end`, that rate). A flow without a rate of its own has nothing to steer: no-op.
  void aim(time_point end, std::uint64_t bytes, std::uint64_t floor) {
    if (!own_) return;
    aim_ = Aim{.end = end, .left = bytes, .floor = std::clamp<std::uint64_t>(floor, 1, ceiling_)};
  }

  // The flow's own rate now (bytes/s; 0 without one): what the last acquire steered it to.
  std::uint64_t rate() const noexcept { return own_ ? own_->rate() : 0; }

  // The largest request acquire accepts: the smaller burst, or "unlimited" if unpaced.
  std::uint64_t max_piece() const noexcept {
    std::uint64_t piece = std::numeric_limits<std::uint64_t>::max();
    if (own_) piece = std::min(piece, own_->burst());
    if (node_ != nullptr) piece = std::min(piece, node_->bucket().burst());
    return piece;
  }

  // What acquire answers: wait `wait`, then send the bytes (granted) or ask again (not).
  struct Grant {
    duration wait = duration::zero();
    bool granted = true;
  };

  // Asks for `bytes` (at most max_piece()). Until the flow's own bucket holds them, takes
  // nothing and says how long to wait before asking again. Then takes them from it and
  // reserves them on the node's bucket (docs/transport.md, "Pacing"): the node serves its
  // flows in the order they ask, so no flow starves whatever its pieces, and the bytes may
  // go once the node's earlier reservations are paid.
  Grant acquire(std::uint64_t bytes, time_point now) {
    if (aim_) steer(now);
    if (own_) {
      if (const duration wait = own_->wait_for(bytes, now); wait != duration::zero()) return {wait, false};
    }
    duration wait = duration::zero();
    if (node_ != nullptr) {
      const std::optional<duration> reserved = node_->bucket().reserve(bytes, now);
      // A debt too large to count (near-maximal rates and bursts): wait for part of it.
      if (!reserved) return {node_->bucket().wait_for(bytes, now), false};
      wait = *reserved;
    }
    if (own_) own_->consume(bytes, now);
    if (aim_) aim_->left -= std::min(aim_->left, bytes);
    return {wait, true};
  }

 private:
  struct Aim {
    time_point end;
    std::uint64_t left = 0;   // bytes still to go before `end`
    std::uint64_t floor = 1;  // never slower than this, even well ahead of the plan
  };

  void steer(time_point now) {
    std::uint64_t rate = ceiling_;
    if (now < aim_->end) {
      const double seconds = std::chrono::duration<double>(aim_->end - now).count();
      const double wanted = static_cast<double>(aim_->left) / seconds;
      if (wanted < static_cast<double>(ceiling_)) rate = static_cast<std::uint64_t>(wanted);
    }
    own_->set_rate(std::max(rate, aim_->floor), now);
  }

  std::optional<TokenBucket<Clock>> own_;
  std::uint64_t ceiling_ = 0;  // the rate the pacer was made with
  std::optional<Aim> aim_;
  NodeCap<Clock>* node_;
};

}  // namespace baton::transport
