// A probe step as the agents get it: a one-step job over the step's nodes only, each flow
// reading the pseudo-random source and writing the discarding sink, unpaced, and every
// agent's plan holding exactly its own flow.
#include "coordinator/calibration/probe_job.h"
#include "coordinator/jobs/agent_plans.h"

#include <boost/test/unit_test.hpp>

namespace cal = baton::calibration;

BOOST_AUTO_TEST_SUITE(probe_job)

BOOST_AUTO_TEST_CASE(a_curve_step_becomes_unpaced_probe_flows_between_its_own_nodes) {
  const std::vector<std::string> senders{"s1", "s2", "s3"}, receivers{"r1", "r2", "r3"};
  const cal::ProbeStep step{"curve", {{0, 0, 1000}, {1, 1, 2000}}, 0.5};
  const cal::ProbeJob job = cal::probe_job(step, senders, receivers);
  BOOST_TEST(job.clusters.senders == (std::vector<std::string>{"s1", "s2"}));
  BOOST_TEST(job.clusters.receivers == (std::vector<std::string>{"r1", "r2"}));
  BOOST_REQUIRE(job.transfers.size() == 2u);
  BOOST_TEST(job.transfers[1].src_file == "probe:random");
  BOOST_TEST(job.transfers[1].dst_file == "probe:discard");
  BOOST_TEST(job.transfers[1].length == 2000u);
  BOOST_CHECK_NO_THROW(baton::jobs::check_transfers(job.clusters, job.transfers));
  BOOST_REQUIRE(job.plan.steps.size() == 1u);
  BOOST_TEST(job.plan.steps[0].bytes == 3000u);
  BOOST_TEST(job.plan.steps[0].predicted_seconds == 0.5);

  const auto plans = baton::jobs::build_agent_plans(job.plan, job.clusters, job.transfers,
                                                    {{"s1", "a:1"}, {"s2", "a:2"}, {"r1", "b:1"}, {"r2", "b:2"}},
                                                    {.id = "p", .number = 7});
  BOOST_REQUIRE(plans.size() == 4u);
  const auto& flow = plans.at("s2").steps(0).flows(0);
  BOOST_TEST(flow.send());
  BOOST_TEST(flow.peer() == "r2");
  BOOST_TEST(flow.rate() == 0.0);  // unpaced
  BOOST_TEST(flow.chunks(0).length() == 2000u);
  BOOST_TEST(plans.at("r1").steps(0).flows_size() == 1);
}

BOOST_AUTO_TEST_CASE(a_rates_step_with_wrapped_indices_names_the_right_nodes) {
  const cal::ProbeJob job = cal::probe_job({"rates", {{1, 3, 10}}, 0.1}, {"s1", "s2"}, {"r1", "r2", "r3", "r4"});
  BOOST_TEST(job.transfers[0].src_node == "s2");
  BOOST_TEST(job.transfers[0].dst_node == "r4");
}

BOOST_AUTO_TEST_SUITE_END()
