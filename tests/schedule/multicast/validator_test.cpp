// The validator rejects each kind of broken schedule. The schedules are built by hand
// from a valid one (the ECF schedule of the paper's Figure 4(b), written out below).
#include "coordinator/schedule/multicast/validator.h"
#include "tests/schedule/multicast/paper_figure_4.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace bm = baton::schedule::multicast;
using bm::Op;
using bm::testing::figure_4_problem;

namespace {

// Figure 4(b), ECF: (0,1,0) 4, (2,0,2) 5, (2,1,2) 7, (0,2,0) 12, (0,3,2) 13, (1,2,1) 18,
// (1,3,1) 19, with every time computed by hand from Equations 5 and 6.
std::vector<bm::TaskList> figure_4b_schedule() {
  return {
      {{Op::send, 1, 0, 0, 1}, {Op::recv, 2, 2, 2, 5}, {Op::send, 2, 0, 5, 6}, {Op::send, 3, 2, 6, 7}},
      {{Op::recv, 0, 0, 1, 4}, {Op::recv, 2, 2, 4, 7}, {Op::send, 2, 1, 7, 8}, {Op::send, 3, 1, 8, 9}},
      {{Op::send, 0, 2, 0, 2}, {Op::send, 1, 2, 2, 4}, {Op::recv, 0, 0, 6, 12}, {Op::recv, 1, 1, 12, 18}},
      {{Op::recv, 0, 2, 7, 13}, {Op::recv, 1, 1, 13, 19}},
  };
}

bool mentions(const bm::Validation& v, const std::string& text) {
  for (const std::string& e : v.errors) {
    if (e.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(validator)

BOOST_AUTO_TEST_CASE(accepts_the_hand_computed_figure_4b_schedule) {
  const bm::Validation v = bm::validate(figure_4_problem(), figure_4b_schedule());
  BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
  BOOST_TEST(v.completion_time == 19.0);
}

BOOST_AUTO_TEST_CASE(rejects_a_missing_delivery) {
  auto s = figure_4b_schedule();
  s[1].pop_back();  // P1 no longer sends m1 to P3 ...
  s[3].pop_back();  // ... and P3 no longer receives it
  const bm::Validation v = bm::validate(figure_4_problem(), s);
  BOOST_TEST(mentions(v, "node 3 receives multicast 1 0 times"));
}

BOOST_AUTO_TEST_CASE(rejects_a_duplicate_delivery) {
  auto s = figure_4b_schedule();
  s[2].push_back({Op::send, 3, 2, 18, 20});
  s[3].push_back({Op::recv, 2, 2, 20, 26});
  const bm::Validation v = bm::validate(figure_4_problem(), s);
  BOOST_TEST(mentions(v, "node 3 receives multicast 2 2 times"));
}

BOOST_AUTO_TEST_CASE(rejects_a_receive_by_a_non_destination) {
  auto s = figure_4b_schedule();
  s[1].push_back({Op::send, 0, 1, 9, 10});
  s[0].push_back({Op::recv, 1, 1, 10, 13});
  const bm::Validation v = bm::validate(figure_4_problem(), s);
  BOOST_TEST(mentions(v, "node 0 is not a destination of multicast 1"));
}

BOOST_AUTO_TEST_CASE(rejects_a_send_by_a_node_that_cannot_hold_the_message) {
  // P3 is no destination of m0, so it can never relay it.
  auto s = figure_4b_schedule();
  s[3].push_back({Op::send, 2, 0, 19, 21});
  const bm::Validation v = bm::validate(figure_4_problem(), s);
  BOOST_TEST(mentions(v, "only the source and destinations may send it"));
}

BOOST_AUTO_TEST_CASE(rejects_a_relay_before_its_receive) {
  // Move P0's relay of m2 to P3 before P0's receive of m2.
  auto s = figure_4b_schedule();
  s[0] = {{Op::send, 1, 0, 0, 1}, {Op::send, 3, 2, 1, 2}, {Op::recv, 2, 2, 2, 5}, {Op::send, 2, 0, 5, 6}};
  s[3][0] = {Op::recv, 0, 2, 2, 8};
  const bm::Validation v = bm::validate(figure_4_problem(), s);
  BOOST_TEST(mentions(v, "relays the multicast before receiving it"));
}

BOOST_AUTO_TEST_CASE(rejects_lists_that_disagree_on_the_sender) {
  // P3 claims to receive m2 from P2, but P0 sent it.
  auto s = figure_4b_schedule();
  s[3][0].peer = 2;
  const bm::Validation v = bm::validate(figure_4_problem(), s);
  BOOST_TEST(mentions(v, "sends and receives do not pair up"));
}

BOOST_AUTO_TEST_CASE(rejects_times_that_are_not_the_models) {
  auto s = figure_4b_schedule();
  s[3][1].start = 14;  // P3 idles for no reason before its last receive
  s[3][1].end = 20;
  BOOST_TEST(mentions(bm::validate(figure_4_problem(), s), "differ from the simulated"));

  s = figure_4b_schedule();
  s[2][0].end = 1;  // a send shorter than S(2, l)
  BOOST_TEST(mentions(bm::validate(figure_4_problem(), s), "the model says"));

  s = figure_4b_schedule();
  s[1][0].start = 0;  // a receive before its message arrives (at 1)
  s[1][0].end = 3;
  BOOST_TEST(mentions(bm::validate(figure_4_problem(), s), "starts before its message arrives"));
}

BOOST_AUTO_TEST_CASE(rejects_lists_that_wait_for_each_other) {
  // P2 first waits for m0 from P0, which P0 sends only after receiving m2 from P2, which
  // P2 would send after that receive: a cycle of waits. The counts are all right.
  auto s = figure_4b_schedule();
  s[2] = {s[2][2], s[2][0], s[2][1], s[2][3]};
  BOOST_TEST(mentions(bm::validate(figure_4_problem(), s), "cannot run"));
}

BOOST_AUTO_TEST_CASE(rejects_bad_indices_and_list_counts) {
  auto s = figure_4b_schedule();
  s[0][0].multicast = 5;
  BOOST_TEST(mentions(bm::validate(figure_4_problem(), s), "out of range"));
  s = figure_4b_schedule();
  s.pop_back();
  BOOST_TEST(mentions(bm::validate(figure_4_problem(), s), "task lists for 4 nodes"));
}

BOOST_AUTO_TEST_SUITE_END()
