// The earliest-reach-first lower bound (Section 3.2), on hand-computed cases.
#include "coordinator/schedule/multicast/lower_bound.h"
#include "coordinator/schedule/multicast/validator.h"

#include <boost/test/unit_test.hpp>

#include <cmath>

namespace bm = baton::schedule::multicast;

BOOST_AUTO_TEST_SUITE(lower_bound)

BOOST_AUTO_TEST_CASE(earliest_reach_takes_the_shortest_relay_path) {
  // P0 -> P2 directly costs 1 + 10 + 1 = 12; through P1 it costs (1 + 1 + 1) + (1 + 1 + 1) = 6.
  bm::Problem p;
  p.nodes = {{1, 0, 1, 0}, {1, 0, 1, 0}, {1, 0, 1, 0}};
  p.link_per_byte = {{0, 1, 10}, {1, 0, 1}, {10, 1, 0}};
  p.multicasts = {{0, 1, {1, 2}}};
  const std::vector<double> reach = bm::earliest_reach_times(p, 0);
  BOOST_TEST(reach[0] == 0.0);
  BOOST_TEST(reach[1] == 3.0);
  BOOST_TEST(reach[2] == 6.0);
  BOOST_TEST(bm::earliest_reach_lower_bound(p) == 6.0);
}

BOOST_AUTO_TEST_CASE(only_the_source_and_destinations_relay) {
  // Same platform, but P1 is not a destination: it may not relay (Section 3.1), so P2 is
  // reached directly at 12.
  bm::Problem p;
  p.nodes = {{1, 0, 1, 0}, {1, 0, 1, 0}, {1, 0, 1, 0}};
  p.link_per_byte = {{0, 1, 10}, {1, 0, 1}, {10, 1, 0}};
  p.multicasts = {{0, 1, {2}}};
  const std::vector<double> reach = bm::earliest_reach_times(p, 0);
  BOOST_TEST(std::isinf(reach[1]));
  BOOST_TEST(reach[2] == 12.0);
  BOOST_TEST(bm::earliest_reach_lower_bound(p) == 12.0);
}

BOOST_AUTO_TEST_CASE(equation_4_serializes_a_destinations_receives) {
  // P3 receives three equal messages reaching it at 5, 6 and 7 (R = 2): T_r = 5, 7, 9.
  bm::Problem p;
  p.nodes = {{3, 0, 2, 0}, {4, 0, 2, 0}, {5, 0, 2, 0}, {1, 0, 2, 0}};
  p.link_per_byte = bm::uniform_links(4, 0);
  p.multicasts = {{0, 8, {3}}, {1, 8, {3}}, {2, 8, {3}}};
  BOOST_TEST(bm::earliest_reach_lower_bound(p) == 9.0);
  // A late message dominates: reaching at 5, 6 and 20 gives max(7 + 2, 20) = 20.
  p.nodes[2].send_fixed = 18;
  BOOST_TEST(bm::earliest_reach_lower_bound(p) == 20.0);
}

BOOST_AUTO_TEST_CASE(mixed_lengths_order_by_earliest_receive_start) {
  // m_a reaches P2 at L = 1 + 9 = 10 with R = 9; m_b at L = 4 + 1 = 5 with R = 1.
  // Receiving in L order gives max(5 + 9, 10) = 14, but this valid schedule ends at 11:
  // P2 receives m_a over [1, 10] and m_b over [10, 11]. The bound must be 11.
  bm::Problem p;
  p.nodes = {{1, 0, 0, 0}, {4, 0, 0, 0}, {0, 0, 0, 1}};
  p.link_per_byte = bm::uniform_links(3, 0);
  p.multicasts = {{0, 9, {2}}, {1, 1, {2}}};
  const std::vector<bm::TaskList> schedule{{{bm::Op::send, 2, 0, 0, 1}},
                                           {{bm::Op::send, 2, 1, 0, 4}},
                                           {{bm::Op::recv, 0, 0, 1, 10}, {bm::Op::recv, 1, 1, 10, 11}}};
  const bm::Validation v = bm::validate(p, schedule);
  BOOST_TEST_REQUIRE(v.ok());
  BOOST_TEST(v.completion_time == 11.0);
  BOOST_TEST(bm::earliest_reach_lower_bound(p) == 11.0);
}

BOOST_AUTO_TEST_CASE(single_broadcast_bound_is_the_farthest_earliest_reach) {
  bm::Problem p;
  p.nodes = {{1, 0, 2, 0}, {3, 0, 1, 0}, {2, 0, 5, 0}, {1, 0, 1, 0}};
  p.link_per_byte = {{0, 1, 4, 2}, {1, 0, 1, 3}, {4, 1, 0, 1}, {2, 3, 1, 0}};
  p.multicasts = {{0, 1, {1, 2, 3}}};
  // L: P1 = 1 + 1 + 1 = 3; P3 = 1 + 2 + 1 = 4; P2 = min(1 + 4 + 5, 3 + 3 + 1 + 5,
  // 4 + 1 + 1 + 5) = 10.
  const std::vector<double> reach = bm::earliest_reach_times(p, 0);
  BOOST_TEST(reach[1] == 3.0);
  BOOST_TEST(reach[3] == 4.0);
  BOOST_TEST(reach[2] == 10.0);
  BOOST_TEST(bm::earliest_reach_lower_bound(p) == 10.0);
}

BOOST_AUTO_TEST_CASE(nothing_to_deliver_gives_zero) {
  bm::Problem p;
  p.nodes = {{1, 0, 1, 0}};
  p.link_per_byte = bm::uniform_links(1, 0);
  BOOST_TEST(bm::earliest_reach_lower_bound(p) == 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
