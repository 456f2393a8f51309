// Which waiting jobs start (coordinator/daemon/start_order.h): free nodes and a free slot,
// priority then submission order, backfill past a blocked job on other nodes only.
#include "coordinator/daemon/start_order.h"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <vector>

namespace bc = baton::coordinator;

using Ids = std::vector<std::uint64_t>;

namespace {

bc::WaitingJob job(std::uint64_t id, std::vector<std::string> nodes, std::int64_t priority = 0) {
  return bc::WaitingJob{.id = id, .priority = priority, .nodes = std::move(nodes), .started_before = false};
}

// A job that may share its nodes with others that do.
bc::WaitingJob sharing(std::uint64_t id, std::vector<std::string> nodes, std::int64_t priority = 0) {
  bc::WaitingJob waiting = job(id, std::move(nodes), priority);
  waiting.shares = true;
  return waiting;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(start_order)

BOOST_AUTO_TEST_CASE(jobs_on_disjoint_nodes_all_start_and_one_sharing_a_node_waits) {
  const Ids start = bc::jobs_to_start({}, {job(1, {"s0", "r0"}), job(2, {"s1", "r1"}), job(3, {"s0", "r2"})}, 64);
  BOOST_TEST(start == (Ids{1, 2}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_job_on_a_running_jobs_node_waits_and_starts_once_it_is_free) {
  const std::vector<bc::WaitingJob> waiting{job(4, {"s0", "r1"})};
  BOOST_TEST(bc::jobs_to_start({"s0", "r0"}, waiting, 64).empty());
  BOOST_TEST(bc::jobs_to_start({"s2"}, waiting, 64) == (Ids{4}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_higher_priority_starts_first_then_submission_order) {
  // Three jobs on the same node: the highest priority first, among equals the earliest.
  const std::vector<bc::WaitingJob> waiting{job(1, {"a"}, 0), job(2, {"a"}, 5), job(3, {"a"}, 5), job(4, {"a"}, -1)};
  BOOST_TEST(bc::jobs_to_start({}, waiting, 64) == (Ids{2}), boost::test_tools::per_element());
  // With room for all (disjoint nodes), they are started in that order.
  const std::vector<bc::WaitingJob> apart{job(1, {"a"}, 0), job(2, {"b"}, 5), job(3, {"c"}, 5), job(4, {"d"}, -1)};
  BOOST_TEST(bc::jobs_to_start({}, apart, 64) == (Ids{2, 3, 1, 4}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_later_job_on_free_nodes_starts_ahead_of_a_blocked_one) {
  // Job 1 waits for s0 (running); job 2 shares nothing with job 1 or the running job.
  const Ids start = bc::jobs_to_start({"s0"}, {job(1, {"s0", "r0"}), job(2, {"s1", "r1"})}, 64);
  BOOST_TEST(start == (Ids{2}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_blocked_job_keeps_its_free_nodes_from_every_job_after_it) {
  // Job 1 waits for s0; r0 is free, but job 2 (same priority, later) and job 3 (lower)
  // may not take it, or a stream of such jobs would starve job 1.
  const std::vector<bc::WaitingJob> waiting{job(1, {"s0", "r0"}), job(2, {"s1", "r0"}), job(3, {"r0"}, -4)};
  BOOST_TEST(bc::jobs_to_start({"s0"}, waiting, 64).empty());
  // A higher-priority job comes before it in the order, so it may.
  const std::vector<bc::WaitingJob> urgent{job(1, {"s0", "r0"}), job(2, {"s1", "r0"}, 1)};
  BOOST_TEST(bc::jobs_to_start({"s0"}, urgent, 64) == (Ids{2}), boost::test_tools::per_element());
  // A lower-priority job does not jump a higher one blocked on a node they share.
  const std::vector<bc::WaitingJob> low_later{job(1, {"s0", "r0"}, 3), job(2, {"r0"}, 0)};
  BOOST_TEST(bc::jobs_to_start({"s0"}, low_later, 64).empty());
}

BOOST_AUTO_TEST_CASE(resumed_jobs_that_had_started_go_first_whatever_their_priority) {
  // Job 1 ran under the earlier coordinator (its agents may hold its plan); job 2, queued
  // then, has the higher priority and shares r0 with it.
  bc::WaitingJob resumed = job(1, {"s0", "r0"});
  resumed.started_before = true;
  const std::vector<bc::WaitingJob> waiting{resumed, job(2, {"s1", "r0"}, 9), job(3, {"s2", "r2"}, 9)};
  BOOST_TEST(bc::jobs_to_start({}, waiting, 64) == (Ids{1, 3}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(no_more_start_than_the_free_slots) {
  const std::vector<bc::WaitingJob> waiting{job(1, {"a"}), job(2, {"b"}), job(3, {"c"})};
  BOOST_TEST(bc::jobs_to_start({}, waiting, 2) == (Ids{1, 2}), boost::test_tools::per_element());
  BOOST_TEST(bc::jobs_to_start({}, waiting, 0).empty());
  BOOST_TEST(bc::jobs_to_start({}, {}, 5).empty());
}

BOOST_AUTO_TEST_CASE(jobs_that_share_start_beside_each_other_up_to_the_cap_per_node) {
  // Two of them may be on a node: jobs 1 and 2 start together on a and b, job 3 waits.
  const std::vector<bc::WaitingJob> waiting{sharing(1, {"a", "b"}), sharing(2, {"a", "b"}), sharing(3, {"b", "c"})};
  BOOST_TEST(bc::jobs_to_start({}, waiting, 64, {.jobs = {}, .jobs_per_node = 2}) == (Ids{1, 2}),
             boost::test_tools::per_element());
  // Beside one running sharing job on b, one more fits there.
  BOOST_TEST(bc::jobs_to_start({}, waiting, 64, {.jobs = {{"b", 1}}, .jobs_per_node = 2}) == (Ids{1}),
             boost::test_tools::per_element());
  // The default cap, one job a node, is the rule without sharing: job 2 waits for job 1.
  BOOST_TEST(bc::jobs_to_start({}, waiting, 64) == (Ids{1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_job_that_does_not_share_waits_for_sharing_ones_and_they_for_it) {
  const bc::NodeSharing two{.jobs = {{"a", 1}}, .jobs_per_node = 2};
  // Job 1 does not share (a collective, an unpaced plan): a running sharing job on a holds it back.
  BOOST_TEST(bc::jobs_to_start({}, {job(1, {"a"})}, 64, two).empty());
  // A sharing job does not start on a node held by one that does not share.
  BOOST_TEST(bc::jobs_to_start({"a"}, {sharing(2, {"a"})}, 64, {.jobs = {}, .jobs_per_node = 2}).empty());
  // Started in the same pass: the one that does not share holds its node against the rest.
  BOOST_TEST(
      bc::jobs_to_start({}, {job(1, {"a"}), sharing(2, {"a"})}, 64, {.jobs = {}, .jobs_per_node = 2}) == (Ids{1}),
      boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_blocked_sharing_job_keeps_its_nodes_from_later_ones) {
  // b is full (two jobs on it): job 1 waits for it, and job 2 may not take a's last room.
  const bc::NodeSharing full_b{.jobs = {{"a", 1}, {"b", 2}}, .jobs_per_node = 2};
  BOOST_TEST(bc::jobs_to_start({}, {sharing(1, {"a", "b"}), sharing(2, {"a"})}, 64, full_b).empty());
  // A higher-priority one comes first, so it may.
  BOOST_TEST(bc::jobs_to_start({}, {sharing(1, {"a", "b"}), sharing(2, {"a"}, 1)}, 64, full_b) == (Ids{2}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_node_listed_twice_in_a_job_counts_once) {
  // A node both sender and receiver of job 1 is one of its nodes: job 2 still fits beside it.
  BOOST_TEST(bc::jobs_to_start({}, {sharing(1, {"a", "a"}), sharing(2, {"a"})}, 64, {.jobs = {}, .jobs_per_node = 2}) ==
                 (Ids{1, 2}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
