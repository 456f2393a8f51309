// A token bucket with exact integer arithmetic, taking its clock as a template parameter.
//
// Tokens are bytes. The bucket refills at `rate_bytes_per_second` up to `burst_bytes` and
// starts full. Internally tokens are counted in units of 1e-9 byte, so a refill over d
// nanoseconds adds exactly rate·d units and every answer is exact (no floating point):
// given the instants, a test can predict every wait to the nanosecond.
//
// Two ways to take tokens: wait_for + consume (ask, and take only when they are there),
// for a bucket one user owns; and reserve (take now, into debt, and wait until the debt is
// paid), for a bucket several users share: reservations are served in the order they are
// made, so no user starves. With ask-and-take, users asking for small amounts take every
// token as it comes in and one asking for more waits for ever (seen: a flow of 7 KiB
// pieces got 2 % of a node cap shared with seven flows of 1 KiB pieces).
//
// Clock: any type with `time_point`, `duration` and `now()` (std::chrono::steady_clock in
// production and in tests). The bucket never calls now() itself: every call
// takes the current time, so tests need no sleeps.
// Not thread-safe: one bucket belongs to one io_context thread (or one test).
#pragma once

#include "error/error.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>

namespace baton::transport {

struct TokenBucketOptions {
  std::uint64_t rate_bytes_per_second = 0;  // > 0, at most max_rate
  std::uint64_t burst_bytes = 0;            // > 0, at most max_burst
};

template <class Clock>
class TokenBucket {
 public:
  using time_point = typename Clock::time_point;
  using duration = typename Clock::duration;

  static constexpr std::uint64_t max_rate = 1'000'000'000'000ULL;  // 1 TB/s
  static constexpr std::uint64_t max_burst = 1ULL << 30;           // 1 GiB

  TokenBucket(TokenBucketOptions options, time_point now)
      : rate_(options.rate_bytes_per_second),
        capacity_(static_cast<std::int64_t>(options.burst_bytes * units_per_byte)), units_(capacity_), last_(now) {
    if (options.rate_bytes_per_second == 0 || options.rate_bytes_per_second > max_rate) {
      throw error::InvalidInput("token bucket: rate must be in 1..1e12 bytes/s");
    }
    if (options.burst_bytes == 0 || options.burst_bytes > max_burst) {
      throw error::InvalidInput("token bucket: burst must be in 1..2^30 bytes");
    }
  }

  std::uint64_t rate() const noexcept { return rate_; }

  // From `now` on, refills at `rate` (1..max_rate); the tokens earned until now, at the old
  // rate, stay, and so does the burst. Throws error::InvalidInput for a rate out of range.
  void set_rate(std::uint64_t rate, time_point now) {
    if (rate == 0 || rate > max_rate) throw error::InvalidInput("token bucket: rate must be in 1..1e12 bytes/s");
    refill(now);
    rate_ = rate;
  }

  std::uint64_t burst() const noexcept { return static_cast<std::uint64_t>(capacity_) / units_per_byte; }

  // How long until `bytes` tokens are there: zero if they are there now.
  // Throws error::InvalidInput if bytes > burst() (it could never be satisfied).
  duration wait_for(std::uint64_t bytes, time_point now) {
    const std::uint64_t need = units_for(bytes);
    refill(now);
    if (units_ >= static_cast<std::int64_t>(need)) return duration::zero();
    return wait_units(need - static_cast<std::uint64_t>(units_));  // need + the debt, if any: < 2^64
  }

  // Takes `bytes` tokens. Precondition: wait_for(bytes, now) == zero.
  void consume(std::uint64_t bytes, time_point now) {
    const std::uint64_t need = units_for(bytes);
    refill(now);
    if (units_ < static_cast<std::int64_t>(need)) throw error::Bug("token bucket: consume without enough tokens");
    units_ -= static_cast<std::int64_t>(need);
  }

  // Takes `bytes` tokens now, into debt if they are not there, and returns how long until
  // the debt is paid: when the bytes may go. Later reservations wait behind this one.
  // Returns nullopt, taking nothing, in the one case the debt could not be counted (more
  // than ~9e9 bytes reserved ahead: rates and bursts near their maxima).
  std::optional<duration> reserve(std::uint64_t bytes, time_point now) {
    const std::uint64_t need = units_for(bytes);
    refill(now);
    if (units_ < std::numeric_limits<std::int64_t>::min() + static_cast<std::int64_t>(need)) return std::nullopt;
    units_ -= static_cast<std::int64_t>(need);
    return debt_wait();
  }

 private:
  static constexpr std::uint64_t units_per_byte = 1'000'000'000ULL;

  std::uint64_t units_for(std::uint64_t bytes) const {
    if (bytes > burst()) throw error::InvalidInput("token bucket: request larger than the burst");
    return bytes * units_per_byte;
  }

  // How long `deficit` units take to come in.
  duration wait_units(std::uint64_t deficit) const {
    const std::uint64_t ns = (deficit + rate_ - 1) / rate_;
    return std::chrono::ceil<duration>(std::chrono::nanoseconds(ns));
  }

  duration debt_wait() const {
    return units_ >= 0 ? duration::zero()
                       : wait_units(static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(units_));
  }

  void refill(time_point now) noexcept {
    if (now <= last_) return;  // a clock that did not move (or moved back) adds nothing
    const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(now - last_).count();
    const auto ns = static_cast<std::uint64_t>(elapsed);
    // In units, from a debt (negative) or a part-full bucket up to full: at most 2^63 + capacity.
    const std::uint64_t missing = static_cast<std::uint64_t>(capacity_) - static_cast<std::uint64_t>(units_);
    // rate·ns can overflow for long idle times; anything at or past `missing` fills the bucket.
    // Otherwise units_ + rate·ns < capacity_ + rate_: an int64, once the wrap of the unsigned sum is undone.
    units_ = ns >= missing / rate_ + 1
                 ? capacity_
                 : std::min(capacity_, static_cast<std::int64_t>(static_cast<std::uint64_t>(units_) + rate_ * ns));
    last_ = now;
  }

  std::uint64_t rate_;
  std::int64_t capacity_;  // at most max_burst·1e9 < 2^60
  std::int64_t units_;     // negative: reserved ahead of the refill (a debt)
  time_point last_;
};

}  // namespace baton::transport
