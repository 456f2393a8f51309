#include <boost/test/unit_test.hpp>

#include <limits>

#include "tests/transport/instants.h"
#include "transport/pacer.h"

using namespace baton::transport;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using test::at_ns;

BOOST_AUTO_TEST_SUITE(flow_pacer)

BOOST_AUTO_TEST_CASE(unpaced_grants_everything_at_once) {
  FlowPacer<std::chrono::steady_clock> pacer({}, nullptr, at_ns(0));
  BOOST_TEST(!pacer.paced());
  BOOST_TEST(pacer.max_piece() == std::numeric_limits<std::uint64_t>::max());
  BOOST_TEST(pacer.try_acquire(std::uint64_t{1} << 40, at_ns(0)).count() == 0);
}

BOOST_AUTO_TEST_CASE(default_burst_is_ten_milliseconds_of_rate) {
  BOOST_TEST(default_burst(100'000'000) == 1'000'000u);
  BOOST_TEST(default_burst(1'000) == 4'096u);  // floor
  FlowPacer<std::chrono::steady_clock> pacer({.rate_bytes_per_second = 50'000'000}, nullptr, at_ns(0));
  BOOST_TEST(pacer.max_piece() == 500'000u);
}

BOOST_AUTO_TEST_CASE(the_slower_of_flow_and_node_decides) {
  NodeCap<std::chrono::steady_clock> node({.rate_bytes_per_second = 500, .burst_bytes = 100}, at_ns(0));
  FlowPacer<std::chrono::steady_clock> a({.rate_bytes_per_second = 1000, .burst_bytes = 100}, &node, at_ns(0));
  FlowPacer<std::chrono::steady_clock> b({.rate_bytes_per_second = 1000, .burst_bytes = 100}, &node, at_ns(0));
  BOOST_TEST(a.try_acquire(100, at_ns(0)).count() == 0);
  // a's own bucket refills in 100 ms, the node's in 200 ms: the node decides.
  BOOST_TEST(a.try_acquire(100, at_ns(0)).count() == nanoseconds(milliseconds(200)).count());
  // b has its own tokens but the node has none: 50 bytes at 500 B/s = 100 ms.
  BOOST_TEST(b.try_acquire(50, at_ns(0)).count() == nanoseconds(milliseconds(100)).count());
  // A refused request takes nothing: at 100 ms the node holds exactly 50 bytes for b.
  BOOST_TEST(b.try_acquire(50, at_ns(100'000'000)).count() == 0);
  // ... and then none for a until 50 more bytes (100 ms) have come in.
  BOOST_TEST(a.try_acquire(50, at_ns(100'000'000)).count() == nanoseconds(milliseconds(100)).count());
  BOOST_TEST(a.max_piece() == 100u);
}

BOOST_AUTO_TEST_CASE(flows_sharing_a_node_never_exceed_it_together) {
  // Independent check: over [0, T] the node lets through at most burst + rate·T bytes, and
  // greedy flows that always ask get at least rate·T − (one piece per flow).
  const std::uint64_t rate = 10'000, burst = 1'000, piece = 200;
  NodeCap<std::chrono::steady_clock> node({.rate_bytes_per_second = rate, .burst_bytes = burst}, at_ns(0));
  std::vector<FlowPacer<std::chrono::steady_clock>> flows;
  for (int i = 0; i < 4; ++i)
    flows.emplace_back(PacerOptions{.rate_bytes_per_second = 4'000, .burst_bytes = burst}, &node, at_ns(0));
  std::uint64_t sent = 0;
  const std::int64_t step = 1'000'000;  // 1 ms
  for (std::int64_t now = 0; now <= 2'000'000'000; now += step) {
    for (auto& flow : flows) {
      while (flow.try_acquire(piece, at_ns(now)).count() == 0) sent += piece;
    }
    const auto allowed = burst + rate * static_cast<std::uint64_t>(now) / 1'000'000'000;
    BOOST_TEST_REQUIRE(sent <= allowed);
    BOOST_TEST_REQUIRE(sent + piece * flows.size() + piece >= allowed);
  }
}

BOOST_AUTO_TEST_SUITE_END()
