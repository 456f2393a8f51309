// The event simulator on hand-computed task lists (Section 2's model).
#include "coordinator/schedule/multicast/simulator.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace bm = baton::schedule::multicast;
using bm::Op;

namespace {

// Node i sends in send_fixed[i], receives in recv_fixed[i]; X = 0.5 s/byte everywhere.
bm::Problem three_nodes(std::uint64_t bytes) {
  bm::Problem p;
  p.nodes = {{2, 0, 1, 0}, {1, 0, 3, 0}, {4, 0, 2, 0}};
  p.link_per_byte = bm::uniform_links(3, 0.5);
  p.multicasts = {{0, bytes, {1, 2}}, {1, bytes, {0, 2}}};
  return p;
}

bm::Task send(bm::NodeId to, bm::MulticastId k) { return {Op::send, to, k, 0, 0}; }
bm::Task recv(bm::NodeId from, bm::MulticastId k) { return {Op::recv, from, k, 0, 0}; }

}  // namespace

BOOST_AUTO_TEST_SUITE(simulator)

BOOST_AUTO_TEST_CASE(send_then_link_then_blocking_receive) {
  // P0 sends m0 (2 bytes) to P1: send [0, 2], arrival 2 + 0.5·2 = 3, receive [3, 6].
  const bm::Problem p = three_nodes(2);
  const bm::Simulation s = bm::simulate(p, {{send(1, 0)}, {recv(0, 0)}, {}});
  BOOST_TEST_REQUIRE(!s.cannot_run);
  BOOST_TEST(s.times[0][0].start == 0.0);
  BOOST_TEST(s.times[0][0].end == 2.0);
  BOOST_TEST(s.times[1][0].arrival == 3.0);
  BOOST_TEST(s.times[1][0].start == 3.0);
  BOOST_TEST(s.times[1][0].end == 6.0);
  BOOST_TEST(s.completion_time == 6.0);
}

BOOST_AUTO_TEST_CASE(sends_do_not_wait_for_their_receivers) {
  // Non-blocking: P0's second send starts when the first send ends (2), not when P1 has
  // received. P2's receive: arrival 4 + 1 = 5, lasts 2.
  const bm::Problem p = three_nodes(2);
  const bm::Simulation s = bm::simulate(p, {{send(1, 0), send(2, 0)}, {recv(0, 0)}, {recv(0, 0)}});
  BOOST_TEST_REQUIRE(!s.cannot_run);
  BOOST_TEST(s.times[0][1].start == 2.0);
  BOOST_TEST(s.times[0][1].end == 4.0);
  BOOST_TEST(s.times[2][0].start == 5.0);
  BOOST_TEST(s.times[2][0].end == 7.0);
  BOOST_TEST(s.completion_time == 7.0);
}

BOOST_AUTO_TEST_CASE(a_busy_receiver_queues_the_message) {
  // P2 receives m0 from P0 (arrival 3, [3, 5]) then m1 from P1 (send [0, 1], arrival 2):
  // the second message waits in the buffer until the first receive ends: [5, 7].
  const bm::Problem p = three_nodes(2);
  const bm::Simulation s = bm::simulate(p, {{send(2, 0)}, {send(2, 1)}, {recv(0, 0), recv(1, 1)}});
  BOOST_TEST_REQUIRE(!s.cannot_run);
  BOOST_TEST(s.times[2][0].start == 3.0);
  BOOST_TEST(s.times[2][1].arrival == 2.0);
  BOOST_TEST(s.times[2][1].start == 5.0);
  BOOST_TEST(s.times[2][1].end == 7.0);
}

BOOST_AUTO_TEST_CASE(a_receive_blocks_the_tasks_after_it) {
  // P1 first receives m0 (arrival 3, [3, 6]), then relays it to P2: send [6, 7].
  const bm::Problem p = three_nodes(2);
  const bm::Simulation s = bm::simulate(p, {{send(1, 0)}, {recv(0, 0), send(2, 0)}, {recv(1, 0)}});
  BOOST_TEST_REQUIRE(!s.cannot_run);
  BOOST_TEST(s.times[1][1].start == 6.0);
  BOOST_TEST(s.times[1][1].end == 7.0);
  BOOST_TEST(s.times[2][0].start == 8.0);
  BOOST_TEST(s.times[2][0].end == 10.0);
}

BOOST_AUTO_TEST_CASE(repeated_channel_messages_match_first_in_first_out) {
  // Two sends of m0 from P0 to P1 and two receives: the n-th receive takes the n-th send.
  const bm::Problem p = three_nodes(0);
  const bm::Simulation s = bm::simulate(p, {{send(1, 0), send(1, 0)}, {recv(0, 0), recv(0, 0)}, {}});
  BOOST_TEST_REQUIRE(!s.cannot_run);
  BOOST_TEST(s.times[1][0].arrival == 2.0);
  BOOST_TEST(s.times[1][1].arrival == 4.0);
  BOOST_TEST(s.times[1][1].start == 5.0);  // after the first receive [2, 5]
}

BOOST_AUTO_TEST_CASE(a_cycle_of_waits_is_reported) {
  // Each node waits for the other's message before sending its own.
  const bm::Problem p = three_nodes(1);
  const bm::Simulation s = bm::simulate(p, {{recv(1, 1), send(1, 0)}, {recv(0, 0), send(0, 1)}, {}});
  BOOST_TEST(s.cannot_run.has_value());
  BOOST_TEST(s.cannot_run.value_or("").reason.find("never gets its message") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_receive_without_a_send_is_reported) {
  const bm::Problem p = three_nodes(1);
  const bm::Simulation s = bm::simulate(p, {{}, {recv(0, 0)}, {}});
  BOOST_TEST(s.cannot_run.has_value());
  BOOST_TEST(s.cannot_run.value_or("").reason.find("node 1 task 0") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_indices_and_list_counts_are_reported) {
  const bm::Problem p = three_nodes(1);
  BOOST_TEST(bm::simulate(p, {{send(7, 0)}, {}, {}}).cannot_run.has_value());
  BOOST_TEST(bm::simulate(p, {{send(1, 9)}, {}, {}}).cannot_run.has_value());
  BOOST_TEST(bm::simulate(p, {{send(0, 0)}, {}, {}}).cannot_run.has_value());
  BOOST_TEST(bm::simulate(p, {{}, {}}).cannot_run.has_value());
}

BOOST_AUTO_TEST_SUITE_END()
