// The agent's families as a scraper sees them, and how a flow's end is counted: checksum
// mismatches (found by the transport, reported in the flow's error) by kind and apart.
#include "agent/agent_metrics.h"
#include "tests/metrics/exposition_check.h"
#include "transport/errors.h"

#include <boost/test/unit_test.hpp>

#include <asio/error.hpp>

#include <string>
#include <vector>

using baton::test::parse_exposition;
using baton::transport::errc;

BOOST_AUTO_TEST_SUITE(agent_metrics, *boost::unit_test::label("prometheus"))

BOOST_AUTO_TEST_CASE(flows_are_counted_by_outcome_and_checksum_failures_apart) {
  baton::metrics::Registry r;
  baton::agent::declare_agent_metrics(r);
  baton::agent::count_flow(r, "received", 4096, {});
  baton::agent::count_flow(r, "received", 100, make_error_code(errc::payload_checksum_mismatch));
  baton::agent::count_flow(r, "received", 0, make_error_code(errc::range_checksum_mismatch));
  baton::agent::count_flow(r, "sent", 0, make_error_code(errc::rejected_by_peer));
  baton::agent::count_flow(r, "sent", 0, asio::error::connection_reset);

  const std::string text = r.render();
  baton::test::check_with_promtool(text);
  const std::string parsed = parse_exposition(text);
  const std::vector<std::string> lines{
      "counter baton_agent_bytes_total{direction=received} 4096\n",
      "counter baton_agent_flow_errors_total{direction=received,error=payload_checksum_mismatch} 1\n",
      "counter baton_agent_flow_errors_total{direction=received,error=range_checksum_mismatch} 1\n",
      "counter baton_agent_checksum_failures_total{direction=received} 2\n",
      "counter baton_agent_flow_errors_total{direction=sent,error=rejected_by_peer} 1\n",
      // Errors from the operating system keep its message.
      "counter baton_agent_flow_errors_total{direction=sent,error=" +
          asio::error_code(asio::error::connection_reset).message() + "} 1\n",
  };
  for (const std::string& expected : lines) {
    BOOST_TEST(parsed.find(expected) != std::string::npos, "missing " << expected << "in\n" << parsed);
  }
  BOOST_TEST(parsed.find("baton_agent_checksum_failures_total{direction=sent}") == std::string::npos, parsed);
  BOOST_TEST(parsed.find("baton_agent_bytes_total{direction=sent}") == std::string::npos, "failed flows add no bytes");
}

// The held jobs' gauges come from a registry of their own, rendered after the agent's: the
// two texts together are one exposition a scraper accepts, each job's series by its label.
BOOST_AUTO_TEST_CASE(held_jobs_gauges_follow_the_agents_families_in_one_exposition) {
  baton::metrics::Registry agent;
  baton::agent::declare_agent_metrics(agent);
  agent.add("baton_agent_steps_total", {{"result", "ok"}}, 3);
  baton::metrics::Registry jobs;
  baton::agent::declare_job_metrics(jobs);
  jobs.set("baton_agent_jobs_held", {}, 2);
  jobs.set("baton_agent_job_steps_done", {{"job", "7"}, {"state", "running"}}, 2);
  jobs.set("baton_agent_job_steps_done", {{"job", "9"}, {"state", "done"}}, 1);
  jobs.set("baton_agent_job_running_step", {{"job", "7"}}, 3);

  const std::string text = agent.render() + jobs.render();
  baton::test::check_with_promtool(text);
  const std::string parsed = parse_exposition(text);
  for (const char* expected :
       {"counter baton_agent_steps_total{result=ok} 3\n", "gauge baton_agent_jobs_held{} 2\n",
        "gauge baton_agent_job_steps_done{job=7,state=running} 2\n",
        "gauge baton_agent_job_steps_done{job=9,state=done} 1\n", "gauge baton_agent_job_running_step{job=7} 3\n"}) {
    BOOST_TEST(parsed.find(expected) != std::string::npos, "missing " << expected << "in\n" << parsed);
  }
}

BOOST_AUTO_TEST_SUITE_END()
