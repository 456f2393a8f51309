// The validators reject every kind of broken schedule and recompute the makespan.
#include <boost/test/unit_test.hpp>

#include "coordinator/schedule/reduction/validator.h"

using namespace baton::schedule::reduction;

namespace {

// 4 nodes, destination 0: 3 -> 2 and 1 -> 0 at time 0, then 2 -> 0.
const Problem kProblem{.times = {1, 2, 1, 3}, .destination = 0};
Schedule good_reduction() { return {{{3, 2, 0, 3}, {1, 0, 0, 2}, {2, 0, 3, 4}}}; }

// The reduction above to root 0, then 0 -> 1, 0 -> 2, 1 -> 3.
AllReduceSchedule good_allreduce() {
  AllReduceSchedule s{.root = 0, .transfers = {}};
  for (const Transfer& t : good_reduction().transfers) s.transfers.push_back({t, Phase::reduce});
  s.transfers.push_back({{0, 1, 4, 5}, Phase::broadcast});
  s.transfers.push_back({{0, 2, 5, 6}, Phase::broadcast});
  s.transfers.push_back({{1, 3, 5, 7}, Phase::broadcast});
  return s;
}

void expect_broken(const Schedule& schedule, const std::string& why) {
  const Verdict verdict = validate_reduction(kProblem, schedule);
  BOOST_TEST(verdict.broken.has_value(), why);
  BOOST_TEST(!verdict.broken.value_or("").reason.empty());
}

void expect_broken(const AllReduceSchedule& schedule, const std::string& why) {
  const Verdict verdict = validate_allreduce(kProblem.times, schedule);
  BOOST_TEST(verdict.broken.has_value(), why);
  BOOST_TEST(!verdict.broken.value_or("").reason.empty());
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_valid_reduction_passes_with_its_makespan) {
  const Verdict verdict = validate_reduction(kProblem, good_reduction());
  BOOST_TEST_REQUIRE(!verdict.broken, verdict.broken.value_or("").reason);
  BOOST_TEST(verdict.makespan == 4.0);
  const Problem alone{.times = {5}, .destination = 0};
  BOOST_TEST(!validate_reduction(alone, {}).broken);
  BOOST_TEST(validate_reduction(alone, {}).makespan == 0.0);
}

BOOST_AUTO_TEST_CASE(broken_reductions_are_rejected) {
  Schedule s = good_reduction();
  s.transfers.pop_back();
  expect_broken(s, "node 2 never sends");

  s = good_reduction();
  s.transfers.push_back({1, 2, 0, 2});
  expect_broken(s, "node 1 sends twice");

  s = good_reduction();
  s.transfers.push_back({0, 1, 4, 5});
  expect_broken(s, "the destination sends");

  s = good_reduction();
  s.transfers[1].end = 1.5;
  expect_broken(s, "a transfer shorter than its sender's time");

  s = good_reduction();
  s.transfers[2] = {2, 0, 1, 2};
  expect_broken(s, "node 2 sends while still receiving from 3");

  s = good_reduction();
  s.transfers[1] = {1, 0, 1.5, 3.5};
  s.transfers[2] = {2, 0, 3, 4};
  expect_broken(s, "the destination receives two overlapping transfers");

  s = good_reduction();
  s.transfers[1] = {1, 2, 0, 2};
  expect_broken(s, "node 2 receives two overlapping transfers");

  s = good_reduction();
  s.transfers[0].dst = 3;
  expect_broken(s, "a node sends to itself");

  s = good_reduction();
  s.transfers[0].dst = 9;
  expect_broken(s, "receiver out of range");

  s = good_reduction();
  s.transfers[0] = {3, 2, -1, 2};
  expect_broken(s, "negative start");

  // 1 sends to 2 after 2 has sent: 2 would take part in something after sending.
  s = {{{3, 0, 0, 3}, {2, 0, 3, 4}, {1, 2, 4, 6}}};
  expect_broken(s, "a node receives after it has sent");
}

BOOST_AUTO_TEST_CASE(a_valid_allreduce_passes_with_its_makespan) {
  const Verdict verdict = validate_allreduce(kProblem.times, good_allreduce());
  BOOST_TEST_REQUIRE(!verdict.broken, verdict.broken.value_or("").reason);
  BOOST_TEST(verdict.makespan == 7.0);
}

BOOST_AUTO_TEST_CASE(broken_allreduces_are_rejected) {
  AllReduceSchedule s = good_allreduce();
  s.root = 4;
  expect_broken(s, "root out of range");

  s = good_allreduce();
  s.root = 1;
  expect_broken(s, "the reduce phase does not end at the root");

  s = good_allreduce();
  s.transfers[3].transfer = {0, 1, 3.5, 4.5};
  expect_broken(s, "the broadcast starts before the root holds the result");

  s = good_allreduce();
  s.transfers[5].transfer = {1, 3, 4.5, 6.5};
  expect_broken(s, "node 1 sends before it has received");

  s = good_allreduce();
  s.transfers.pop_back();
  expect_broken(s, "node 3 never receives the broadcast");

  s = good_allreduce();
  s.transfers.push_back({{2, 3, 6, 7}, Phase::broadcast});
  expect_broken(s, "node 3 receives twice");

  s = good_allreduce();
  s.transfers.push_back({{3, 0, 7, 10}, Phase::broadcast});
  expect_broken(s, "the root receives the broadcast");

  s = good_allreduce();
  s.transfers[4].transfer = {0, 2, 4.5, 5.5};
  expect_broken(s, "the root is in two overlapping broadcast transfers");

  s = good_allreduce();
  s.transfers[5].transfer = {1, 3, 5, 8};
  expect_broken(s, "a broadcast transfer of the wrong length");

  s = good_allreduce();
  s.transfers[2].phase = Phase::broadcast;
  expect_broken(s, "a reduce transfer marked as broadcast");
}

BOOST_AUTO_TEST_CASE(rounding_from_json_is_tolerated) {
  Schedule s = good_reduction();
  s.transfers[2] = {2, 0, 3 + 1e-13, 4 + 1e-13};
  BOOST_TEST(!validate_reduction(kProblem, s).broken);
}
