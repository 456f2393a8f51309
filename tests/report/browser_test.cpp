// The status page of a real coordinator, after a real job, as a browser sees it: Debian's
// headless Chromium loads GET /jobs/{id}, dumps the DOM it built and takes a screenshot.
// The per-node timing it draws is checked against the API's JSON first, and a coordinator
// with an API token is seen through HTTP Basic. Needs chromium and python3 on PATH (CMake's
// NEEDS: skipped, saying so, without them).
#include "tests/integration/cluster.h"
#include "tests/report/markup_probe.h"
#include "tests/support/run_process.h"
#include "tests/support/tools.h"

#include <httplib.h>
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using baton::test::Cluster;
using baton::test::Json;
using baton::test::run_process;
using baton::test::write_random_file;

namespace {

Json transfer(const std::string& src, std::uint64_t src_offset, std::uint64_t length, const std::string& dst,
              std::uint64_t dst_offset) {
  return {{"src_node", src}, {"src_file", "in.bin"},  {"src_offset", src_offset}, {"length", length},
          {"dst_node", dst}, {"dst_file", "out.bin"}, {"dst_offset", dst_offset}};
}

// A finished 2 × 2 job, paced so that steps take tens of milliseconds.
struct FinishedJob {
  Cluster cluster;
  std::string id;
  Json job;
  std::string api;
  FinishedJob() {
    write_random_file(cluster.root("a0") / "in.bin", 2'000'000, 1);
    write_random_file(cluster.root("a1") / "in.bin", 2'000'000, 2);
    for (const char* node : {"a0", "a1", "b0", "b1"}) cluster.start_agent(node);
    BOOST_REQUIRE_MESSAGE(cluster.wait_alive(4), cluster.coordinator_log());
    const Json spec{
        {"senders", {"a0", "a1"}},
        {"receivers", {"b0", "b1"}},
        {"platform",
         {{"sender_rate", 40e6}, {"receiver_rate", 40e6}, {"backbone_rate", 80e6}, {"step_startup", 0.001}}},
        {"transfers",
         {transfer("a0", 0, 1'500'000, "b0", 0), transfer("a0", 1'500'000, 500'000, "b1", 0),
          transfer("a1", 0, 500'000, "b0", 1'500'000), transfer("a1", 500'000, 1'500'000, "b1", 500'000)}}};
    const auto [status, body] = cluster.post("/v1/jobs", spec.dump());
    BOOST_REQUIRE_MESSAGE(status == 201, body.dump());
    id = body.at("id").get<std::string>();
    job = cluster.wait_job(id);
    BOOST_REQUIRE_MESSAGE(job.value("state", "") == "done", job.dump() << "\n" << cluster.coordinator_log());
    const std::string ready = baton::test::read_file(cluster.dir() / "ready.json");
    api = "http://" + Json::parse(ready).at("api").get<std::string>();
  }
  // Measured bars the chart must have: one per node with a flow, in every step.
  std::size_t measured_bars() const {
    std::size_t n = 0;
    for (const Json& step : job.at("report").at("steps")) n += step.at("nodes").size();
    return n;
  }
};

baton::test::ProcessResult chromium(const std::filesystem::path& profile, std::vector<std::string> args) {
  std::vector<std::string> argv{baton::test::tool_path("chromium"),
                                "--headless",
                                "--no-sandbox",
                                "--disable-gpu",
                                "--no-first-run",
                                "--hide-scrollbars",
                                "--user-data-dir=" + profile.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, {}, std::chrono::seconds(90));
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_job_reports_each_step_node_by_node) {
  FinishedJob f;
  double last_start = -1;
  for (const Json& step : f.job.at("report").at("steps")) {
    BOOST_TEST_REQUIRE(step.contains("started_seconds"), step.dump());
    const double started = step.at("started_seconds").get<double>();
    BOOST_TEST(started > last_start, step.dump());  // the barrier: one step after another
    last_start = started + step.at("measured_seconds").get<double>() - 1e-6;
    BOOST_TEST(!step.at("nodes").empty());
    for (const auto& [node, timing] : step.at("nodes").items()) {
      // What the agent reported moving is what the plan gave it.
      BOOST_TEST(timing.at("bytes").get<std::uint64_t>() == timing.at("planned_bytes").get<std::uint64_t>(), node);
      BOOST_TEST(timing.at("seconds").get<double>() > 0, node);
      BOOST_TEST(timing.at("seconds").get<double>() <= step.at("measured_seconds").get<double>(), node);
    }
  }
  httplib::Client client(f.api);
  const auto svg = client.Get("/v1/jobs/" + f.id + "/gantt.svg");
  BOOST_TEST_REQUIRE(static_cast<bool>(svg));
  BOOST_TEST(svg->status == 200);
  BOOST_TEST(svg->get_header_value("Content-Type").starts_with("image/svg+xml"));
  const auto parsed = baton::test::inspect_svg(svg->body);
  std::size_t measured = 0;
  for (const auto& bar : parsed.at("bars")) measured += bar.at("class") == "measured" ? 1 : 0;
  BOOST_TEST(measured == f.measured_bars());
  std::ofstream("gantt-example.svg") << svg->body;  // beside the test, for a look
}

BOOST_AUTO_TEST_CASE(chromium_shows_the_agents_the_job_and_its_chart) {
  FinishedJob f;
  const std::filesystem::path profile = f.cluster.dir() / "chromium";
  const std::string url = f.api + "/jobs/" + f.id;
  const auto dom = chromium(profile, {"--dump-dom", url});
  BOOST_TEST_REQUIRE(dom.exit_code == 0, dom.err);
  const auto html = baton::test::inspect_html(dom.out);
  const std::string text = html.at("text").get<std::string>();
  for (const char* node : {"a0", "a1", "b0", "b1"}) BOOST_TEST(text.find(node) != std::string::npos, node);
  BOOST_TEST(text.find("Agents: 4 alive of 4") != std::string::npos, text);
  BOOST_TEST(text.find("Job " + f.id) != std::string::npos, text);
  BOOST_TEST(html.at("tags").value("svg", 0) == 1);
  BOOST_TEST(html.at("classes").value("measured", 0) == static_cast<int>(f.measured_bars()));
  BOOST_TEST(html.at("classes").value("planned", 0) == static_cast<int>(f.measured_bars()));

  const std::filesystem::path png = std::filesystem::absolute("status-page.png");  // kept for a look
  std::filesystem::remove(png);
  const auto shot = chromium(profile, {"--screenshot=" + png.string(), "--window-size=1280,900", url});
  BOOST_TEST_REQUIRE(shot.exit_code == 0, shot.err);
  BOOST_TEST_REQUIRE(std::filesystem::exists(png));
  std::ifstream file(png, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  BOOST_TEST_REQUIRE(bytes.size() > 24u);
  BOOST_TEST((bytes.substr(0, 8) == "\x89PNG\r\n\x1a\n"));
  const auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned>(static_cast<unsigned char>(bytes[at])) << 24) |
           (static_cast<unsigned>(static_cast<unsigned char>(bytes[at + 1])) << 16) |
           (static_cast<unsigned>(static_cast<unsigned char>(bytes[at + 2])) << 8) |
           static_cast<unsigned>(static_cast<unsigned char>(bytes[at + 3]));
  };
  BOOST_TEST(be32(16) == 1280u);  // IHDR: width, height
  BOOST_TEST(be32(20) == 900u);
  BOOST_TEST(bytes.size() > 20'000u, "a blank page compresses to a few kB; this one has " << bytes.size());
}

BOOST_AUTO_TEST_CASE(with_an_api_token_the_page_asks_for_it_and_shows_with_it) {
  const std::string token = "page-token-0123456789abcdef";
  baton::test::Cluster cluster(token);
  const std::string api = cluster.api_address();
  httplib::Client client("http://" + api);
  const auto refused = client.Get("/");
  BOOST_TEST_REQUIRE(static_cast<bool>(refused));
  BOOST_TEST(refused->status == 401);
  BOOST_TEST(refused->get_header_value("WWW-Authenticate").starts_with("Basic realm="));
  client.set_basic_auth("anyone", token);
  const auto page = client.Get("/");
  BOOST_TEST_REQUIRE(static_cast<bool>(page));
  BOOST_TEST(page->status == 200);

  // A browser given the token as the password (here in the URL) sees the page.
  const auto dom = chromium(cluster.dir() / "chromium", {"--dump-dom", "http://baton:" + token + "@" + api + "/"});
  BOOST_TEST_REQUIRE(dom.exit_code == 0, dom.err);
  BOOST_TEST(dom.out.find("Agents: 0 alive of 0") != std::string::npos, dom.out);
}
