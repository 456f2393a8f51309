// A collective's dataflow step losing a relay mid-pipeline (docs/faults.md): a node that
// receives, folds and forwards segments is killed while the segments flow. The step's
// attempt fails on every node and is retried once the node is back; the job ends `done`
// with every node's result exact, or `failed` naming the cause; never `done` with wrong
// bytes, never a hang.
#include "tests/integration/collective_arrays.h"
#include "tests/integration/collective_cluster.h"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

using baton::test::CollectiveCluster;
using baton::test::Json;
using namespace baton::test;
using namespace std::chrono_literals;

namespace {

// Five nodes, two slow: an 8 MB array takes the all-reduce at least 4 s at the slow nodes'
// 2 MB/s (their bound M / r_min). The agents report progress about once a second, so the
// kill lands a few seconds before the step could end, even on a loaded machine.
const std::vector<std::uint64_t> kRates{2'000'000, 2'000'000, 8'000'000, 8'000'000, 8'000'000};
constexpr std::size_t kFaultCount = 1'000'000;  // i64: 8 MB

// Waits until the running step has moved bytes (the agents' progress reports).
void wait_step_bytes(CollectiveCluster& c, const std::string& id) {
  for (int i = 0; i < 4000; ++i) {
    const Json job = c.cluster.get("/v1/jobs/" + id).second;
    if (job.value("step_bytes_done", std::uint64_t{0}) > 0) return;
    const std::string state = job.value("state", "");
    BOOST_TEST_REQUIRE((state != "done" && state != "failed" && state != "cancelled"),
                       "ended before the fault: " << job.dump() << "\n"
                                                  << c.cluster.coordinator_log());
    std::this_thread::sleep_for(5ms);
  }
  BOOST_FAIL("job " << id << " moved no bytes:\n" << c.cluster.coordinator_log());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(collective_faults)

BOOST_AUTO_TEST_CASE(a_relay_killed_mid_pipeline_and_restarted_gets_the_step_retried_and_the_allreduce_right) {
  CollectiveCluster c(kRates);
  std::vector<std::string> inputs;
  for (std::size_t i = 0; i < c.nodes.size(); ++i) {
    inputs.push_back(make_array("i64", "sum", kFaultCount, 900 + static_cast<unsigned>(i)));
    std::ofstream(c.cluster.root(c.nodes[i]) / "grad.bin", std::ios::binary) << inputs.back();
  }
  // rate-rsag: every fast node owns a shard, receives the others' parts of it, folds them
  // and sends the result on, segment by segment. n3 is one of them.
  const Json job{{"kind", "allreduce"},
                 {"nodes", c.nodes},
                 {"data", {{"file", "grad.bin"}, {"offset", 0}, {"count", kFaultCount}, {"dtype", "i64"}}},
                 {"op", "sum"},
                 {"result", {{"file", "result.bin"}}},
                 {"algorithm", "rate-rsag"}};
  const auto [status, body] = c.cluster.post("/v1/jobs", job.dump());
  BOOST_TEST_REQUIRE(status == 201, body.dump());
  const std::string id = body.at("id").get<std::string>();
  wait_step_bytes(c, id);
  c.cluster.crash_and_restart_agent("n3", 1s);
  const Json ended = c.cluster.wait_job(id);
  const std::string state = ended.value("state", "");
  // The fault matrix's contract: done with every byte right, or failed naming the cause
  // (a node and what broke), with every daemon's log shown to say why.
  BOOST_TEST_REQUIRE((state == "done" || state == "failed"), ended.dump() << "\n" << c.cluster.coordinator_log());
  if (state == "failed") {
    const std::string error = ended.value("error", "");
    BOOST_TEST_MESSAGE("the job failed: " << error);
    BOOST_TEST_MESSAGE("the coordinator's log:\n" << c.cluster.coordinator_log());
    for (const std::string& node : c.nodes) BOOST_TEST_MESSAGE(node << "'s log:\n" << c.cluster.agent_log(node));
    BOOST_TEST(error.find("step 0 failed 3 times") != std::string::npos, error);
    BOOST_TEST(
        (error.find("peer closed the connection") != std::string::npos || error.find(" is dead") != std::string::npos),
        error);
    return;
  }
  // The killed attempt is in the report: the dataflow step ran more than once.
  BOOST_TEST(ended.at("report").at("steps").at(0).value("attempts", 0) >= 2, ended.at("report").dump());
  const std::string exact = fold_in_order("i64", "sum", inputs);
  for (const std::string& node : c.nodes) {
    const std::string wrong = first_difference("i64", read_file(c.cluster.root(node) / "result.bin"), exact);
    BOOST_TEST(wrong.empty(), node << ": " << wrong);
  }
}

BOOST_AUTO_TEST_SUITE_END()
