// The start-up measurement every agent reports: each valid dtype/op once, within the time
// the agent allows it (~0.3 s), and a plausible speed for each.
#include "combine/speed.h"

#include <boost/test/unit_test.hpp>

#include <set>
#include <utility>

namespace bc = baton::combine;

BOOST_AUTO_TEST_SUITE(combine_speed)

BOOST_AUTO_TEST_CASE(every_valid_pair_is_measured_once_within_the_budget) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<bc::Speed> speeds = bc::measure_speeds();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BOOST_TEST(speeds.size() == 36u);  // 6 dtypes × 4 ops + 4 integer dtypes × 3 bitwise ops
  std::set<std::pair<bc::DType, bc::Op>> seen;
  for (const bc::Speed& s : speeds) {
    BOOST_TEST(bc::valid(s.dtype, s.op));
    BOOST_TEST(seen.emplace(s.dtype, s.op).second, bc::name(s.dtype) << " " << bc::name(s.op) << " twice");
    // A 1 MiB array combined in under 10 ms at least once, even unvectorised under the
    // sanitizers: anything slower is a broken clock (or a loop that is not the kernel).
    BOOST_TEST(s.bytes_per_second > 1e8, bc::name(s.dtype) << " " << bc::name(s.op) << ": " << s.bytes_per_second);
  }
  BOOST_TEST(seconds < 0.5);  // at most 36 × 4 ms of rounds, plus warm-ups, on a busy machine
}

BOOST_AUTO_TEST_SUITE_END()
