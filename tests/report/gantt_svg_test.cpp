// The Gantt chart (coordinator/report/gantt_svg.h) of a job's JSON read back as batonctl
// reads it (report::parse_job_report), checked by an independent XML parser:
// well-formed, one bar per node and step with flows, and bars placed and sized in
// proportion to the times in the job.
#include "coordinator/report/gantt_svg.h"
#include "error/error.h"
#include "tests/report/markup_probe.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

using baton::report::Json;
using baton::report::parse_job_report;

namespace {
// The chart of a job as the API answers it, read back as batonctl reads it.
std::string gantt_svg(const Json& job) { return baton::report::gantt_svg(parse_job_report(job)); }
}  // namespace

namespace {

// Two senders and two receivers, three steps: 0 and 1 ran (1 with one flow), 2 not yet.
Json sample_job() {
  Json job = Json::parse(R"({"id": "7", "state": "running", "error": "", "submitted": "t", "algorithm": "oggp",
    "senders": ["a0", "a1"], "receivers": ["b0", "b1"], "bytes": 6200000, "bytes_done": 4600000,
    "step": 2, "steps": 3, "elapsed_seconds": 1.05,
    "report": {"algorithm": "oggp", "k": 2, "flow_rate": 4000000, "predicted_seconds": 1.3, "lower_bound_seconds": 1.1,
               "measured_steps_seconds": 1.03, "measured_seconds": 1.05, "steps": [
      {"index": 0, "flows": 2, "bytes": 3000000, "predicted_seconds": 0.5, "planned_start_seconds": 0,
       "measured_seconds": 0.62, "attempts": 1, "started_seconds": 0.01,
       "nodes": {"a0": {"planned_bytes": 2000000, "planned_seconds": 0.5, "bytes": 2000000, "seconds": 0.6},
                 "a1": {"planned_bytes": 1000000, "planned_seconds": 0.25, "bytes": 1000000, "seconds": 0.3},
                 "b0": {"planned_bytes": 2000000, "planned_seconds": 0.5, "bytes": 2000000, "seconds": 0.61},
                 "b1": {"planned_bytes": 1000000, "planned_seconds": 0.25, "bytes": 1000000, "seconds": 0.31}}},
      {"index": 1, "flows": 1, "bytes": 1600000, "predicted_seconds": 0.4, "planned_start_seconds": 0.5,
       "measured_seconds": 0.41, "attempts": 2, "started_seconds": 0.64,
       "nodes": {"a0": {"planned_bytes": 1600000, "planned_seconds": 0.4, "bytes": 1600000, "seconds": 0.39},
                 "b1": {"planned_bytes": 1600000, "planned_seconds": 0.4, "bytes": 1600000, "seconds": 0.4}}},
      {"index": 2, "flows": 1, "bytes": 1600000, "predicted_seconds": 0.4, "planned_start_seconds": 0.9,
       "nodes": {"a1": {"planned_bytes": 1600000, "planned_seconds": 0.4},
                 "b0": {"planned_bytes": 1600000, "planned_seconds": 0.4}}}]}})");
  return job;
}

// The parsed chart.
nlohmann::json parsed(const Json& job) { return baton::test::inspect_svg(gantt_svg(job)); }

}  // namespace

BOOST_AUTO_TEST_CASE(one_bar_per_node_and_step_with_flows_planned_and_measured) {
  const auto svg = parsed(sample_job());
  BOOST_TEST_REQUIRE(!svg.contains("error"), svg.dump());
  BOOST_TEST(svg.at("root").get<std::string>() == "{http://www.w3.org/2000/svg}svg");
  std::set<std::pair<std::string, int>> planned, measured;
  for (const auto& bar : svg.at("bars")) {
    auto& set = bar.at("class") == "planned" ? planned : measured;
    BOOST_TEST(set.insert({bar.at("node").get<std::string>(), bar.at("step").get<int>()}).second,
               "twice: " << bar.dump());
  }
  // Every node of every step has its plan; only the steps that ran (0, 1) are measured.
  const std::set<std::pair<std::string, int>> all{{"a0", 0}, {"a1", 0}, {"b0", 0}, {"b1", 0},
                                                  {"a0", 1}, {"b1", 1}, {"a1", 2}, {"b0", 2}};
  const std::set<std::pair<std::string, int>> ran{{"a0", 0}, {"a1", 0}, {"b0", 0}, {"b1", 0}, {"a0", 1}, {"b1", 1}};
  BOOST_TEST((planned == all));
  BOOST_TEST((measured == ran));
}

BOOST_AUTO_TEST_CASE(bars_are_placed_and_sized_in_proportion_to_the_times) {
  const Json job = sample_job();
  const auto svg = parsed(job);
  BOOST_TEST_REQUIRE(!svg.contains("error"), svg.dump());
  // The plan of step 0 starts at t = 0: its x is the time axis' origin.
  double origin = -1;
  for (const auto& bar : svg.at("bars")) {
    if (bar.at("class") == "planned" && bar.at("step") == 0) origin = bar.at("x").get<double>();
  }
  BOOST_TEST_REQUIRE(origin > 0);
  double scale = 0;  // pixels per second, the same for every bar
  std::map<std::string, double> row_y;
  for (const auto& bar : svg.at("bars")) {
    const Json& step = job["report"]["steps"][bar.at("step").get<std::size_t>()];
    const Json& node = step["nodes"][bar.at("node").get<std::string>()];
    const bool measured = bar.at("class") == "measured";
    const double start = measured ? step["started_seconds"].get<double>() : step["planned_start_seconds"].get<double>();
    const double seconds = measured ? node["seconds"].get<double>() : node["planned_seconds"].get<double>();
    if (scale == 0) scale = bar.at("width").get<double>() / seconds;
    BOOST_TEST(bar.at("width").get<double>() == seconds * scale, boost::test_tools::tolerance(0.001));
    BOOST_TEST(bar.at("x").get<double>() - origin == start * scale, boost::test_tools::tolerance(0.001));
    // A node keeps its row: its planned and measured bars of every step share one band.
    const double y = bar.at("y").get<double>() - (measured ? 13 : 0);
    const auto [it, inserted] = row_y.emplace(bar.at("node").get<std::string>(), y);
    BOOST_TEST(it->second == y, bar.dump());
  }
  BOOST_TEST(scale > 100);  // the chart is 960 units wide for ~1.3 s
  BOOST_TEST(row_y.size() == 4u);
}

BOOST_AUTO_TEST_CASE(the_title_names_the_job_and_its_totals) {
  const auto svg = parsed(sample_job());
  std::string texts;
  for (const auto& t : svg.at("texts")) texts += t.get<std::string>() + "\n";
  BOOST_TEST(texts.find("Job 7 · oggp · k 2 · running") != std::string::npos, texts);
  BOOST_TEST(texts.find("predicted 1.300 s · measured 1.050 s") != std::string::npos, texts);
  for (const char* node : {"a0\n", "a1\n", "b0\n", "b1\n"}) BOOST_TEST(texts.find(node) != std::string::npos, node);
}

BOOST_AUTO_TEST_CASE(names_from_agents_are_escaped) {
  Json job = sample_job();
  const std::string evil = "a<0>&\"'x";
  Json& nodes = job["report"]["steps"][1]["nodes"];
  nodes[evil] = nodes["a0"];
  nodes.erase("a0");
  job["id"] = "<7>";
  const auto svg = parsed(job);
  BOOST_TEST_REQUIRE(!svg.contains("error"), svg.dump());
  bool found = false;
  for (const auto& bar : svg.at("bars")) found = found || bar.at("node") == evil;
  BOOST_TEST(found);
  BOOST_TEST(svg.at("texts").dump().find("Job <7>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_job_without_a_per_node_report_is_refused_with_the_reason) {
  Json queued = Json::parse(R"({"id": "3", "state": "queued", "error": "", "submitted": "t", "algorithm": "oggp",
    "senders": ["a0"], "receivers": ["b0"], "bytes": 1, "bytes_done": 0, "step": 0, "steps": 0, "elapsed_seconds": 0})");
  BOOST_CHECK_EXCEPTION(gantt_svg(queued), baton::error::InvalidInput, [](const baton::error::InvalidInput& e) {
    return std::string(e.what()) == "job 3 has no report yet (it has not been planned)";
  });
  Json old = sample_job();
  old["report"]["steps"][1].erase("nodes");
  BOOST_CHECK_EXCEPTION(gantt_svg(old), baton::error::InvalidInput, [](const baton::error::InvalidInput& e) {
    return std::string(e.what()).find("step 1 of the report has no per-node timing") != std::string::npos;
  });
}
