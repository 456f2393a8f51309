// The agents' heartbeat interval as the cluster grows (coordinator/daemon/heartbeat_policy.h):
// never below heartbeat_seconds, agents / max_heartbeats_per_second beyond it, at most 60 s.
#include "coordinator/daemon/heartbeat_policy.h"

#include <boost/test/unit_test.hpp>

namespace bc = baton::coordinator;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(heartbeat_policy)

BOOST_AUTO_TEST_CASE(the_interval_is_heartbeat_seconds_until_the_agents_exceed_the_rate) {
  const bc::HeartbeatPolicy policy{.every = 1s, .max_per_second = 128};
  BOOST_TEST(policy.interval(0).count() == 1000);
  BOOST_TEST(policy.interval(64).count() == 1000);
  BOOST_TEST(policy.interval(128).count() == 1000);
  BOOST_TEST(policy.interval(129).count() == 1008);  // 1007.8 ms, rounded up: never above the rate
  BOOST_TEST(policy.interval(1024).count() == 8000);
  BOOST_TEST(policy.interval(1000).count() == 7813);
}

BOOST_AUTO_TEST_CASE(the_interval_stops_at_sixty_seconds) {
  const bc::HeartbeatPolicy policy{.every = 1s, .max_per_second = 128};
  BOOST_TEST(policy.interval(7680).count() == 60'000);
  BOOST_TEST(policy.interval(100'000).count() == 60'000);
}

BOOST_AUTO_TEST_CASE(a_high_rate_keeps_heartbeat_seconds) {
  const bc::HeartbeatPolicy policy{.every = 200ms, .max_per_second = 1e6};
  BOOST_TEST(policy.interval(4096).count() == 200);
}

BOOST_AUTO_TEST_SUITE_END()
