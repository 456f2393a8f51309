// Both daemons' /metrics scraped over HTTP after a real job on loopback, validated by
// promtool, read back by the Prometheus client's parser, and compared with what the job's
// own report says.
#include "tests/integration/cluster.h"
#include "tests/metrics/exposition_check.h"

#include <httplib.h>
#include <boost/test/unit_test.hpp>

#include <regex>

using baton::test::check_with_promtool;
using baton::test::Cluster;
using baton::test::Json;
using baton::test::parse_exposition;
using baton::test::write_random_file;

namespace {

std::string get_metrics(const std::string& address) {
  httplib::Client client("http://" + address);
  const auto result = client.Get("/metrics");
  if (!result || result->status != 200) return "error: no answer from " + address;
  return result->body;
}

// The value of the sample `series` ("name{labels}" as parse_exposition prints it); -1 when absent.
double sample(const std::string& parsed, const std::string& series) {
  const auto at = parsed.find(" " + series + " ");
  if (at == std::string::npos) return -1;
  return std::stod(parsed.substr(at + series.size() + 2));
}

// A gauge that is 0, or was never set.
bool zero_or_absent(const std::string& parsed, const std::string& series) {
  return parsed.find(" " + series + " ") == std::string::npos || sample(parsed, series) == 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(endpoints)

BOOST_AUTO_TEST_CASE(after_a_job_the_counters_agree_with_its_report) {
  Cluster cluster;
  write_random_file(cluster.root("a0") / "in.bin", 3'000'000, 5);
  write_random_file(cluster.root("a1") / "in.bin", 3'000'000, 6);
  for (const char* node : {"a0", "a1", "b0", "b1"})
    cluster.start_agent(node, {}, "metrics_address = \"127.0.0.1:0\"\n");
  BOOST_REQUIRE(cluster.wait_alive(4));

  Json transfers = Json::array();
  for (int s = 0; s < 2; ++s) {
    for (int r = 0; r < 2; ++r) {
      transfers.push_back({{"src_node", "a" + std::to_string(s)},
                           {"src_file", "in.bin"},
                           {"src_offset", r * 1'000'000},
                           {"length", 1'000'000 + 1000 * r},
                           {"dst_node", "b" + std::to_string(r)},
                           {"dst_file", "out.bin"},
                           {"dst_offset", s * 1'500'000}});
    }
  }
  const Json job{
      {"senders", {"a0", "a1"}},
      {"receivers", {"b0", "b1"}},
      {"transfers", transfers},
      {"platform", {{"sender_rate", 20e6}, {"receiver_rate", 20e6}, {"backbone_rate", 20e6}, {"step_startup", 0.001}}}};
  const auto [code, body] = cluster.post("/v1/jobs", job.dump());
  BOOST_REQUIRE_MESSAGE(code == 201, body.dump());
  const Json done = cluster.wait_job(body.at("id").get<std::string>());
  BOOST_REQUIRE_MESSAGE(done.value("state", "") == "done", done.dump());
  std::uint64_t bytes = 0;  // what the test asked to move
  for (const Json& t : transfers) bytes += t.at("length").get<std::uint64_t>();
  BOOST_TEST(done.at("bytes").get<std::uint64_t>() == bytes);
  const auto steps = done.at("steps").get<std::size_t>();  // the plan's
  BOOST_TEST_REQUIRE(steps > 0u);
  BOOST_TEST(done.at("report").at("steps").size() == steps);

  const std::string coordinator_text = get_metrics(cluster.api_address());
  check_with_promtool(coordinator_text);
  const std::string coordinator = parse_exposition(coordinator_text);
  BOOST_TEST(coordinator.find("error") == std::string::npos, coordinator);
  BOOST_TEST(sample(coordinator, "baton_bytes_moved_total{}") == static_cast<double>(bytes), coordinator);
  BOOST_TEST(sample(coordinator, "baton_steps_total{}") == static_cast<double>(steps));
  BOOST_TEST(sample(coordinator, "baton_step_seconds_count{}") == static_cast<double>(steps));
  BOOST_TEST(sample(coordinator, "baton_agents{state=alive}") == 4);
  BOOST_TEST(sample(coordinator, "baton_agents{state=dead}") == 0);
  BOOST_TEST(sample(coordinator, "baton_jobs_finished_total{state=done}") == 1);
  BOOST_TEST(sample(coordinator, "baton_jobs{state=running}") == 0);
  BOOST_TEST(sample(coordinator, "baton_jobs{state=queued}") == 0);
  BOOST_TEST(sample(coordinator, "baton_step_measured_seconds_total{}") > 0);
  BOOST_TEST(sample(coordinator, "baton_step_attempts_failed_total{}") == -1, "no failed attempt was ever counted");

  // Each agent: what it sent and received adds up to the job's bytes once on each side.
  double sent = 0, received = 0;
  for (const char* node : {"a0", "a1", "b0", "b1"}) {
    std::smatch address;
    const std::string log = cluster.agent_log(node);
    BOOST_REQUIRE_MESSAGE(std::regex_search(log, address, std::regex(R"(metrics at http://(\S+)/metrics)")), log);
    const std::string agent_text = get_metrics(address[1].str());
    check_with_promtool(agent_text);
    const std::string agent = parse_exposition(agent_text);
    BOOST_TEST(agent.find("error") == std::string::npos, agent);
    sent += std::max(0.0, sample(agent, "baton_agent_bytes_total{direction=sent}"));
    received += std::max(0.0, sample(agent, "baton_agent_bytes_total{direction=received}"));
    BOOST_TEST(sample(agent, "baton_agent_registered{}") == 1);
    BOOST_TEST(sample(agent, "baton_agent_plans_total{answer=accepted}") == 1);
    BOOST_TEST(sample(agent, "baton_agent_steps_total{result=ok}") == static_cast<double>(steps));
    BOOST_TEST(sample(agent, "baton_agent_step_seconds_count{}") == static_cast<double>(steps));
    BOOST_TEST(sample(agent, "baton_agent_sessions_total{}") == 1);
    BOOST_TEST(zero_or_absent(agent, "baton_agent_flows_active{direction=sent}"), "no flow is left running");
    BOOST_TEST(zero_or_absent(agent, "baton_agent_flows_active{direction=received}"), "no flow is left running");
    BOOST_TEST(agent.find("baton_agent_checksum_failures_total{") == std::string::npos, agent);
    BOOST_TEST(agent.find("baton_agent_flow_errors_total{") == std::string::npos, agent);
  }
  BOOST_TEST(sent == static_cast<double>(bytes));
  BOOST_TEST(received == static_cast<double>(bytes));
}

BOOST_AUTO_TEST_CASE(the_metrics_endpoint_needs_no_api_token_but_the_api_still_does) {
  baton::test::Cluster cluster("metrics-token-0123456789abcdef");
  httplib::Client client("http://" + cluster.api_address());
  const auto metrics = client.Get("/metrics");
  BOOST_TEST_REQUIRE(static_cast<bool>(metrics));
  BOOST_TEST(metrics->status == 200);
  BOOST_TEST(metrics->get_header_value("Content-Type").starts_with("text/plain; version=0.0.4"));
  check_with_promtool(metrics->body);
  BOOST_TEST(sample(parse_exposition(metrics->body), "baton_agents{state=alive}") == 0);
  const auto agents = client.Get("/v1/agents");
  BOOST_TEST_REQUIRE(static_cast<bool>(agents));
  BOOST_TEST(agents->status == 401);
}

BOOST_AUTO_TEST_SUITE_END()
