// The start-up measurement every agent reports: each valid dtype/op once, the fastest of
// at least min_rounds and at most max_rounds rounds, the rounds ending once the budget per
// pair has passed. The rounds and the arithmetic are checked on a clock that moves by a set
// step each time it is read; the real clock only shows that every pair gets a speed.
#include "combine/speed.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <set>
#include <utility>

namespace bc = baton::combine;
using namespace std::chrono_literals;

namespace {

// A clock that moves by `step` each time it is read, and counts the reads.
struct SteppingClock {
  std::chrono::steady_clock::duration step;
  std::chrono::steady_clock::time_point at{};
  int reads = 0;
  bc::SpeedClock function() {
    return [this] {
      ++reads;
      return at += step;
    };
  }
};

constexpr std::size_t kPairs = 36;  // 6 dtypes × 4 ops + 4 integer dtypes × 3 bitwise ops
constexpr std::size_t kArray = 64 << 10;

}  // namespace

BOOST_AUTO_TEST_SUITE(combine_speed)

BOOST_AUTO_TEST_CASE(every_valid_pair_is_measured_once) {
  const std::vector<bc::Speed> speeds = bc::measure_speeds();
  BOOST_TEST(speeds.size() == kPairs);
  std::set<std::pair<bc::DType, bc::Op>> seen;
  for (const bc::Speed& s : speeds) {
    BOOST_TEST(bc::valid(s.dtype, s.op));
    BOOST_TEST(seen.emplace(s.dtype, s.op).second, bc::name(s.dtype) << " " << bc::name(s.op) << " twice");
    BOOST_TEST((std::isfinite(s.bytes_per_second) && s.bytes_per_second > 0),
               bc::name(s.dtype) << " " << bc::name(s.op) << ": " << s.bytes_per_second);
  }
}

BOOST_AUTO_TEST_CASE(a_slow_node_stops_after_min_rounds_once_the_budget_has_passed) {
  SteppingClock clock{.step = 2ms};  // every round takes half the 4 ms budget
  const std::vector<bc::Speed> speeds = bc::measure_speeds(kArray, 4000us, clock.function());
  BOOST_REQUIRE(speeds.size() == kPairs);
  // Per pair: the start, then one read per round; the budget is spent after two rounds,
  // but min_rounds are always done.
  BOOST_TEST(clock.reads == static_cast<int>(kPairs) * (1 + bc::min_rounds));
  for (const bc::Speed& s : speeds)
    BOOST_TEST(s.bytes_per_second == kArray / 0.002, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(a_fast_node_stops_at_max_rounds_within_the_budget) {
  SteppingClock clock{.step = 10us};  // 16 rounds take 160 µs of the 4 ms budget
  const std::vector<bc::Speed> speeds = bc::measure_speeds(kArray, 4000us, clock.function());
  BOOST_REQUIRE(speeds.size() == kPairs);
  BOOST_TEST(clock.reads == static_cast<int>(kPairs) * (1 + bc::max_rounds));
  for (const bc::Speed& s : speeds)
    BOOST_TEST(s.bytes_per_second == kArray / 10e-6, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_SUITE_END()
