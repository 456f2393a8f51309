// Calibration with real processes on loopback (docs/calibration.md): the agents run the
// probe flows from their pseudo-random source into their discarding sink, the coordinator
// answers d, D, beta and k, shows them on the status page and as a chart, and then plans a
// job without "platform" on them; every destination byte of that job is checked.
#include "tests/integration/cluster.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <thread>

using baton::test::Cluster;
using baton::test::Json;
using baton::test::read_file;
using baton::test::write_random_file;
using namespace std::chrono_literals;

namespace {

Json wait_calibration(Cluster& cluster, const std::string& id) {
  const auto limit = std::chrono::steady_clock::now() + 120s;
  Json c;
  while (std::chrono::steady_clock::now() < limit) {
    c = cluster.get("/v1/calibrations/" + id).second;
    if (c.value("state", "") == "done" || c.value("state", "") == "failed") break;
    std::this_thread::sleep_for(100ms);
  }
  return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(calibration)

BOOST_AUTO_TEST_CASE(probes_measure_the_platform_and_a_job_without_one_is_planned_on_it) {
  Cluster cluster;
  for (const char* node : {"s0", "s1", "r0", "r1"}) cluster.start_agent(node);
  BOOST_REQUIRE_MESSAGE(cluster.wait_alive(4), cluster.coordinator_log());

  // Not re-planned on drift: this checks the plan made on the calibration, and on a loaded
  // loopback (the sanitizer tree) slow steps once re-planned it on other figures (a flow
  // rate of 10.1 MB/s reported against the calibration's D/(k + 1) of 32.6 MB/s).
  const std::string job = R"({"senders": ["s0", "s1"], "receivers": ["r0", "r1"], "replan": false,
      "pattern": {"bytes": 3000000, "to": "block-cyclic", "to_block": 100000, "src_file": "array.bin",
      "dst_file": "copy.bin"}})";
  const auto [refused, why] = cluster.post("/v1/jobs", job);
  BOOST_TEST(refused == 400);
  BOOST_TEST(why.value("error", "").find("batonctl calibrate --senders s0,s1 --receivers r0,r1") != std::string::npos,
             why.dump());
  BOOST_TEST(cluster.post("/v1/calibrations", R"({"senders": ["s0"], "receivers": ["nobody"]})").first == 400);
  BOOST_TEST(cluster.post("/v1/calibrations", R"({"senders": ["s0"], "receivers": ["s0"]})").first == 400);
  BOOST_TEST(cluster.get("/v1/calibrations/7").first == 404);

  const auto [status, answer] =
      cluster.post("/v1/calibrations", R"({"senders": ["s0", "s1"], "receivers": ["r0", "r1"], "flow_seconds": 0.1})");
  BOOST_REQUIRE_MESSAGE(status == 201, answer.dump());
  const Json c = wait_calibration(cluster, answer["id"].get<std::string>());
  BOOST_REQUIRE_MESSAGE(c.value("state", "") == "done", c.dump() + "\n" + cluster.coordinator_log());
  for (const char* figure : {"d", "D"}) BOOST_TEST(c[figure].get<double>() > 0, figure);
  // β is a fit's intercept, clamped at 0: on a loaded loopback it can come out as 0.
  BOOST_TEST(c["beta"].get<double>() >= 0);
  BOOST_TEST(c["k"].get<int>() >= 1);
  BOOST_TEST(c["D"].get<double>() >= c["d"].get<double>());
  BOOST_TEST(c["nodes"].size() == 4u);
  BOOST_TEST(c["seconds"].get<double>() < 30);

  const auto [svg_status, svg] = cluster.get("/v1/calibrations/" + answer["id"].get<std::string>() + "/curve.svg");
  BOOST_TEST(svg_status == 200);
  const auto list = cluster.get("/v1/calibrations").second;
  BOOST_TEST(list["calibrations"].size() == 1u);

  std::string array;
  for (const char* node : {"s0", "s1"}) {
    array += write_random_file(cluster.root(node) / "array.bin", 1'500'000, node[1] == '0' ? 1 : 2);
  }
  const auto [accepted, id] = cluster.post("/v1/jobs", job);
  BOOST_REQUIRE_MESSAGE(accepted == 201, id.dump());
  const Json done = cluster.wait_job(id["id"].get<std::string>());
  BOOST_REQUIRE_MESSAGE(done.value("state", "") == "done", done.dump() + "\n" + cluster.coordinator_log());
  const Json& platform = done["report"]["platform"];
  BOOST_TEST(platform["source"].get<std::string>() == "calibration");
  BOOST_TEST(platform["calibration"].get<std::string>() == answer["id"].get<std::string>());
  BOOST_TEST(done["report"]["replans"].empty(), done["report"]["replans"].dump());
  // Planned on the calibration's d and k, or on the backbone filled: k + 1 flows paced at
  // D/(k + 1) when that lowers the bound (docs/calibration.md; loopback's D is rarely k·d).
  const double flow_rate = done["report"]["flow_rate"].get<double>();
  const int k = c["k"].get<int>();
  if (std::abs(flow_rate / c["d"].get<double>() - 1) > 1e-9) {
    BOOST_TEST(done["report"]["k"].get<int>() == k + 1);
    BOOST_TEST(flow_rate == c["D"].get<double>() / (k + 1), boost::test_tools::tolerance(1e-6));
  }
  // Block-cyclic over two receivers, 100 kB blocks, computed here.
  for (std::size_t r = 0; r < 2; ++r) {
    std::string expected;
    for (std::size_t block = r; block * 100'000 < array.size(); block += 2)
      expected += array.substr(block * 100'000, 100'000);
    BOOST_TEST((read_file(cluster.root(r == 0 ? "r0" : "r1") / "copy.bin") == expected));
  }
}

BOOST_AUTO_TEST_SUITE_END()
