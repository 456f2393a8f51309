// The plan cache (coordinator/daemon/plan_cache.h): a plan is found for equal inputs only,
// the least recently used goes first, and a job too large is not kept.
#include "coordinator/daemon/plan_cache.h"

#include <boost/test/unit_test.hpp>

namespace bc = baton::coordinator;
namespace bj = baton::jobs;

namespace {

bc::PlanInputs inputs(std::uint64_t length) {
  bc::PlanInputs in;
  in.clusters = {{"s0"}, {"r0"}};
  in.transfers = {{"s0", "a", 0, length, "r0", "x", 0}};
  in.platform = {.sender_rate = 1e6,
                 .receiver_rate = 1e6,
                 .backbone_rate = 2e6,
                 .step_startup = 0.01,
                 .sender_rates = {},
                 .receiver_rates = {}};
  return in;
}

bj::CompiledPlan plan_of(double predicted) {
  bj::CompiledPlan plan;
  plan.predicted_seconds = predicted;
  return plan;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(plan_cache)

BOOST_AUTO_TEST_CASE(equal_inputs_find_the_plan_and_its_job_and_any_difference_misses) {
  bc::PlanCache cache;
  cache.keep(inputs(100), 7, plan_of(1.5));
  const auto hit = cache.find(inputs(100));
  BOOST_TEST_REQUIRE(hit.has_value());
  BOOST_TEST(hit->job == 7u);
  BOOST_TEST(hit->plan.predicted_seconds == 1.5);
  BOOST_TEST(!cache.find(inputs(101)).has_value());
  bc::PlanInputs other = inputs(100);
  other.transfers[0].dst_offset = 1;
  BOOST_TEST(!cache.find(other).has_value());
  other = inputs(100);
  other.platform.step_startup = 0.02;
  BOOST_TEST(!cache.find(other).has_value());
  other = inputs(100);
  other.platform.receiver_rates = {2e6};  // a node's own rate plans differently
  BOOST_TEST(!cache.find(other).has_value());
  other = inputs(100);
  other.algorithm = baton::schedule::kpbs::Algorithm::ggp;
  BOOST_TEST(!cache.find(other).has_value());
  other = inputs(100);
  other.clusters.receivers = {"r1"};
  BOOST_TEST(!cache.find(other).has_value());
}

BOOST_AUTO_TEST_CASE(the_least_recently_used_plan_goes_first) {
  bc::PlanCache cache;
  for (std::uint64_t i = 1; i <= bc::PlanCache::kPlans; ++i) cache.keep(inputs(i), i, plan_of(0));
  BOOST_TEST(cache.find(inputs(1)).has_value());  // now the most recently used
  cache.keep(inputs(99), 99, plan_of(0));         // one too many: 2, the least recent, goes
  BOOST_TEST(cache.find(inputs(1)).has_value());
  BOOST_TEST(!cache.find(inputs(2)).has_value());
  BOOST_TEST(cache.find(inputs(99)).has_value());
}

BOOST_AUTO_TEST_CASE(a_job_of_too_many_transfers_is_not_kept) {
  bc::PlanCache cache;
  bc::PlanInputs large = inputs(1);
  large.transfers.resize(bc::PlanCache::kMaxTransfers + 1, large.transfers[0]);
  cache.keep(large, 1, plan_of(0));
  BOOST_TEST(!cache.find(large).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
