#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <stdexcept>

#include "error/error.h"
#include "tests/transport/instants.h"
#include "transport/token_bucket.h"

using namespace baton::transport;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using test::at_ns;

BOOST_AUTO_TEST_SUITE(token_bucket)

BOOST_AUTO_TEST_CASE(starts_full_and_waits_exactly_for_the_deficit) {
  TokenBucket<std::chrono::steady_clock> bucket({.rate_bytes_per_second = 1000, .burst_bytes = 100}, at_ns(0));
  BOOST_TEST(bucket.wait_for(100, at_ns(0)).count() == 0);
  bucket.consume(100, at_ns(0));
  // 1000 B/s: one byte takes 1 ms, fifty bytes 50 ms.
  BOOST_TEST(bucket.wait_for(1, at_ns(0)).count() == nanoseconds(milliseconds(1)).count());
  BOOST_TEST(bucket.wait_for(50, at_ns(0)).count() == nanoseconds(milliseconds(50)).count());
  BOOST_TEST(bucket.wait_for(50, at_ns(49'999'999)).count() == nanoseconds(1).count());
  BOOST_TEST(bucket.wait_for(50, at_ns(50'000'000)).count() == 0);
}

BOOST_AUTO_TEST_CASE(never_stores_more_than_the_burst) {
  TokenBucket<std::chrono::steady_clock> bucket({.rate_bytes_per_second = 1000, .burst_bytes = 100}, at_ns(0));
  bucket.consume(100, at_ns(0));
  const auto hour = at_ns(3'600'000'000'000LL);
  bucket.consume(100, hour);
  BOOST_TEST(bucket.wait_for(1, hour).count() == nanoseconds(milliseconds(1)).count());
}

BOOST_AUTO_TEST_CASE(keeps_fractions_of_a_byte_between_calls) {
  // 3 B/s: one byte every 333 333 333.33 ns. The fraction must carry over, not be lost.
  TokenBucket<std::chrono::steady_clock> bucket({.rate_bytes_per_second = 3, .burst_bytes = 10}, at_ns(0));
  bucket.consume(10, at_ns(0));
  BOOST_TEST(bucket.wait_for(1, at_ns(0)).count() == nanoseconds(333'333'334).count());
  BOOST_TEST(bucket.wait_for(1, at_ns(333'333'333)).count() == nanoseconds(1).count());
  bucket.consume(1, at_ns(333'333'334));
  // 2 units of 1e-9 byte left over: the next byte is due at exactly 666 666 667 ns.
  BOOST_TEST(bucket.wait_for(1, at_ns(333'333'334)).count() == nanoseconds(333'333'333).count());
  // Independently: 10 + 3·t bytes credited by t; 14 are needed, so t = 4/3 s, rounded up.
  BOOST_TEST(bucket.wait_for(3, at_ns(1'000'000'000)).count() == nanoseconds(333'333'334).count());
}

BOOST_AUTO_TEST_CASE(greedy_sender_follows_the_closed_form) {
  // A sender taking p bytes as soon as allowed gets its k-th piece (k past the burst) at
  // exactly ceil((k·p − B)·1e9 / r) ns: rate r after an initial burst B, with no drift.
  const std::uint64_t r = 7'777, burst = 1'000, p = 250;
  TokenBucket<std::chrono::steady_clock> bucket({.rate_bytes_per_second = r, .burst_bytes = burst}, at_ns(0));
  std::int64_t now = 0;
  for (std::uint64_t k = 1; k <= 2'000; ++k) {
    now += bucket.wait_for(p, at_ns(now)).count();
    bucket.consume(p, at_ns(now));
    const std::uint64_t owed = k * p > burst ? (k * p - burst) * 1'000'000'000ULL : 0;
    const auto expected = static_cast<std::int64_t>((owed + r - 1) / r);
    BOOST_TEST_REQUIRE(now == expected, "piece " << k);
  }
}

BOOST_AUTO_TEST_CASE(refuses_requests_it_could_never_grant) {
  TokenBucket<std::chrono::steady_clock> bucket({.rate_bytes_per_second = 1000, .burst_bytes = 100}, at_ns(0));
  BOOST_CHECK_THROW(bucket.wait_for(101, at_ns(0)), baton::error::InvalidInput);
  bucket.consume(60, at_ns(0));
  BOOST_CHECK_THROW(bucket.consume(60, at_ns(0)), baton::error::Bug);
  BOOST_CHECK_THROW(TokenBucket<std::chrono::steady_clock>({.rate_bytes_per_second = 0, .burst_bytes = 1}, at_ns(0)),
                    baton::error::InvalidInput);
  BOOST_CHECK_THROW(TokenBucket<std::chrono::steady_clock>({.rate_bytes_per_second = 1, .burst_bytes = 0}, at_ns(0)),
                    baton::error::InvalidInput);
}

BOOST_AUTO_TEST_CASE(long_idle_at_top_rate_does_not_overflow) {
  TokenBucket<std::chrono::steady_clock> bucket(
      {.rate_bytes_per_second = TokenBucket<std::chrono::steady_clock>::max_rate,
       .burst_bytes = TokenBucket<std::chrono::steady_clock>::max_burst},
      at_ns(0));
  bucket.consume(TokenBucket<std::chrono::steady_clock>::max_burst, at_ns(0));
  const auto much_later = at_ns(std::int64_t{1} << 62);
  BOOST_TEST(bucket.wait_for(TokenBucket<std::chrono::steady_clock>::max_burst, much_later).count() == 0);
  bucket.consume(TokenBucket<std::chrono::steady_clock>::max_burst, much_later);
  BOOST_TEST(bucket.wait_for(1, much_later).count() == 1);  // 1 byte at 1e12 B/s: 1 ps, rounded up
}

BOOST_AUTO_TEST_CASE(reservations_go_into_debt_and_are_paid_in_order) {
  // 1000 B/s, 100 bytes: three reservations of 100 bytes at t = 0 go at 0, 100 and 200 ms.
  TokenBucket<std::chrono::steady_clock> bucket({.rate_bytes_per_second = 1000, .burst_bytes = 100}, at_ns(0));
  BOOST_TEST(bucket.reserve(100, at_ns(0)).value().count() == 0);
  BOOST_TEST(bucket.reserve(100, at_ns(0)).value().count() == nanoseconds(milliseconds(100)).count());
  BOOST_TEST(bucket.reserve(100, at_ns(0)).value().count() == nanoseconds(milliseconds(200)).count());
  // At 50 ms the debt is 150 bytes: a 10-byte request waits for it and for itself.
  BOOST_TEST(bucket.wait_for(10, at_ns(50'000'000)).count() == nanoseconds(milliseconds(160)).count());
  // Paid at 200 ms (it started full): the bucket refills from empty, never past its burst.
  BOOST_TEST(bucket.wait_for(100, at_ns(200'000'000)).count() == nanoseconds(milliseconds(100)).count());
  BOOST_TEST(bucket.wait_for(100, at_ns(3'000'000'000)).count() == 0);
  BOOST_CHECK_THROW(bucket.reserve(101, at_ns(3'000'000'000)), baton::error::InvalidInput);  // past the burst
}

BOOST_AUTO_TEST_CASE(a_new_rate_keeps_the_tokens_earned_at_the_old_one) {
  // 1000 B/s, emptied at 0; at 500 ms it holds 500 bytes and from then on refills at 100 B/s:
  // 600 bytes are there 1 s later, the burst stays 1000 bytes.
  TokenBucket<std::chrono::steady_clock> bucket({.rate_bytes_per_second = 1000, .burst_bytes = 1000}, at_ns(0));
  bucket.consume(1000, at_ns(0));
  bucket.set_rate(100, at_ns(500'000'000));
  BOOST_TEST(bucket.rate() == 100u);
  BOOST_TEST(bucket.wait_for(600, at_ns(500'000'000)).count() == nanoseconds(milliseconds(1000)).count());
  BOOST_TEST(bucket.burst() == 1000u);
  BOOST_CHECK_THROW(bucket.set_rate(0, at_ns(500'000'000)), baton::error::InvalidInput);
  BOOST_CHECK_THROW(bucket.set_rate(TokenBucket<std::chrono::steady_clock>::max_rate + 1, at_ns(500'000'000)),
                    baton::error::InvalidInput);
  BOOST_TEST(bucket.rate() == 100u);  // a refused rate changes nothing
}

BOOST_AUTO_TEST_SUITE_END()
