// A token bucket with exact integer arithmetic, taking its clock as a template parameter.
//
// Tokens are bytes. The bucket refills at `rate_bytes_per_second` up to `burst_bytes` and
// starts full. Internally tokens are counted in units of 1e-9 byte, so a refill over d
// nanoseconds adds exactly rate·d units and every answer is exact (no floating point):
// given the instants, a test can predict every wait to the nanosecond.
//
// Clock: any type with `time_point`, `duration` and `now()` (std::chrono::steady_clock in
// production and in tests). The bucket never calls now() itself: every call
// takes the current time, so tests need no sleeps.
// Not thread-safe: one bucket belongs to one io_context thread (or one test).
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>

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
      : rate_(options.rate_bytes_per_second), capacity_(options.burst_bytes * units_per_byte), units_(capacity_),
        last_(now) {
    if (options.rate_bytes_per_second == 0 || options.rate_bytes_per_second > max_rate) {
      throw std::invalid_argument("token bucket: rate must be in 1..1e12 bytes/s");
    }
    if (options.burst_bytes == 0 || options.burst_bytes > max_burst) {
      throw std::invalid_argument("token bucket: burst must be in 1..2^30 bytes");
    }
  }

  std::uint64_t rate() const noexcept { return rate_; }
  std::uint64_t burst() const noexcept { return capacity_ / units_per_byte; }

  // How long until `bytes` tokens are there: zero if they are there now.
  // Throws std::invalid_argument if bytes > burst() (it could never be satisfied).
  duration wait_for(std::uint64_t bytes, time_point now) {
    const std::uint64_t need = units_for(bytes);
    refill(now);
    if (units_ >= need) return duration::zero();
    const std::uint64_t deficit = need - units_;
    const std::uint64_t ns = (deficit + rate_ - 1) / rate_;
    return std::chrono::ceil<duration>(std::chrono::nanoseconds(ns));
  }

  // Takes `bytes` tokens. Precondition: wait_for(bytes, now) == zero.
  void consume(std::uint64_t bytes, time_point now) {
    const std::uint64_t need = units_for(bytes);
    refill(now);
    if (units_ < need) throw std::logic_error("token bucket: consume without enough tokens");
    units_ -= need;
  }

 private:
  static constexpr std::uint64_t units_per_byte = 1'000'000'000ULL;

  std::uint64_t units_for(std::uint64_t bytes) const {
    if (bytes > burst()) throw std::invalid_argument("token bucket: request larger than the burst");
    return bytes * units_per_byte;
  }

  void refill(time_point now) noexcept {
    if (now <= last_) return;  // a clock that did not move (or moved back) adds nothing
    const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(now - last_).count();
    const auto ns = static_cast<std::uint64_t>(elapsed);
    const std::uint64_t missing = capacity_ - units_;
    // rate·ns can overflow for long idle times; anything at or past `missing` fills the bucket.
    units_ = ns >= missing / rate_ + 1 ? capacity_ : std::min(capacity_, units_ + rate_ * ns);
    last_ = now;
  }

  std::uint64_t rate_;
  std::uint64_t capacity_;
  std::uint64_t units_;
  time_point last_;
};

}  // namespace baton::transport
