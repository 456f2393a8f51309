// The status page's HTML (coordinator/report/status_page.h) read back by Python's HTML
// parser: what it lists, that it loads nothing from elsewhere, and that names from agents
// and jobs cannot inject markup.
#include "coordinator/report/status_page.h"
#include "tests/report/markup_probe.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>
#include <vector>

using baton::report::status_page_html;
using baton::report::StatusPage;
using Json = nlohmann::ordered_json;

namespace {

StatusPage sample_page() {
  StatusPage page;
  page.coordinator = "job 2 step 1/1";
  page.agents = Json::parse(R"({"agents": [
    {"node": "a0", "alive": true, "addresses": ["127.0.0.1:4000"], "transports": ["tcp"], "rate": 1e8,
     "last_heartbeat_age": 0.1, "job": "2"},
    {"node": "b0", "alive": false, "addresses": ["127.0.0.1:4001"], "transports": ["tcp"], "rate": 1e8,
     "last_heartbeat_age": 9.5, "job": ""}]})");
  page.jobs = Json::parse(R"({"jobs": [
    {"id": "1", "state": "done", "algorithm": "ggp", "steps": 1, "step": 1, "bytes": 100, "bytes_done": 100, "submitted": "t1"},
    {"id": "2", "state": "running", "algorithm": "oggp", "steps": 1, "step": 0, "bytes": 100, "bytes_done": 0, "submitted": "t2"}]})");
  page.job = baton::report::parse_job_report(Json::parse(R"({"id": "2", "state": "running", "error": "",
    "submitted": "t2", "algorithm": "oggp", "senders": ["a0"], "receivers": ["b0"],
    "bytes": 100, "bytes_done": 0, "step": 0, "steps": 1, "elapsed_seconds": 0.2,
    "report": {"algorithm": "oggp", "k": 1, "flow_rate": 200, "predicted_seconds": 0.5, "lower_bound_seconds": 0.5,
      "measured_steps_seconds": 0, "measured_seconds": 0.2, "steps": [{"index": 0, "flows": 1, "bytes": 100, "predicted_seconds": 0.5, "planned_start_seconds": 0,
                 "nodes": {"a0": {"planned_bytes": 100, "planned_seconds": 0.5},
                           "b0": {"planned_bytes": 100, "planned_seconds": 0.5}}}]}})"));
  return page;
}

nlohmann::json parsed(const StatusPage& page) { return baton::test::inspect_html(status_page_html(page)); }

int count(const nlohmann::json& html, const char* tag) { return html.at("tags").value(tag, 0); }

bool has(const nlohmann::json& html, const std::string& text) {
  return html.at("text").get<std::string>().find(text) != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_CASE(lists_agents_and_jobs_and_draws_the_selected_job) {
  const auto html = parsed(sample_page());
  BOOST_TEST(has(html, "Agents: 1 alive of 2"), html.at("text"));
  BOOST_TEST(has(html, "127.0.0.1:4001"));
  BOOST_TEST(has(html, "job 2 step 1/1"));
  BOOST_TEST(count(html, "svg") == 1);
  BOOST_TEST(count(html, "tr") == 3 + 3 + 2);  // header + rows: agents, jobs, the job's steps
  const auto links = html.at("links").get<std::vector<std::string>>();
  BOOST_TEST((std::ranges::find(links, "/jobs/1") != links.end()));
  BOOST_TEST((std::ranges::find(links, "/v1/jobs/2/gantt.svg") != links.end()));
  BOOST_TEST(count(html, "meta") == 2);  // charset and the refresh
}

// A collective's report names what its links allow and, for auto, the algorithms it
// weighed: the page shows measured / bound and the choice (docs/status-page.md).
BOOST_AUTO_TEST_CASE(a_collective_shows_measured_over_bound_and_autos_choice) {
  StatusPage page = sample_page();
  Json job = Json::parse(R"({"id": "2", "state": "done", "error": "", "submitted": "t2", "algorithm": "auto",
    "kind": "allreduce", "senders": ["a0"], "receivers": ["b0"], "bytes": 100, "bytes_done": 100, "step": 1,
    "steps": 1, "elapsed_seconds": 0.3,
    "report": {"algorithm": "rate-rsag", "k": 8, "flow_rate": 200, "predicted_seconds": 0.25,
      "measured_steps_seconds": 0.3, "measured_seconds": 0.3, "bandwidth_bound_seconds": 0.2,
      "algorithm_candidates": [{"algorithm": "rate-rsag", "predicted_seconds": 0.25},
                               {"algorithm": "ring", "predicted_seconds": 0.4}],
      "steps": [{"index": 0, "flows": 1, "bytes": 100, "predicted_seconds": 0.25, "planned_start_seconds": 0,
                 "nodes": {"a0": {"planned_bytes": 100, "planned_seconds": 0.25}}}]}})");
  page.job = baton::report::parse_job_report(job);
  const auto html = parsed(page);
  BOOST_TEST(has(html, "links allow"), html.at("text"));
  BOOST_TEST(has(html, "1.50"), html.at("text"));  // measured 0.3 s over the bound 0.2 s
  BOOST_TEST(has(html, "auto chose"), html.at("text"));
  BOOST_TEST(has(html, "rate-rsag of rate-rsag"), html.at("text"));
  BOOST_TEST(has(html, "ring"), html.at("text"));
}

BOOST_AUTO_TEST_CASE(loads_nothing_from_elsewhere) {
  const auto html = parsed(sample_page());
  for (const char* tag : {"script", "link", "img", "iframe", "object"}) BOOST_TEST(count(html, tag) == 0, tag);
  BOOST_TEST(count(html, "style") == 1);
}

BOOST_AUTO_TEST_CASE(names_from_agents_and_jobs_cannot_inject_markup) {
  StatusPage page = sample_page();
  const std::string evil = "<script>alert(1)</script><img src=x>";
  page.agents["agents"][0]["node"] = evil;
  page.jobs["jobs"][0]["algorithm"] = evil;
  page.job->error = evil;
  const auto html = parsed(page);
  BOOST_TEST(count(html, "script") == 0);
  BOOST_TEST(count(html, "img") == 0);
  BOOST_TEST(has(html, evil));  // shown as text
}

BOOST_AUTO_TEST_CASE(an_unknown_job_shows_the_error_and_no_chart) {
  StatusPage page = sample_page();
  page.job.reset();
  page.error = "no job 99";
  page.refresh_seconds = 0;
  const auto html = parsed(page);
  BOOST_TEST(has(html, "no job 99"));
  BOOST_TEST(count(html, "svg") == 0);
  BOOST_TEST(count(html, "meta") == 1);  // no refresh
}

BOOST_AUTO_TEST_CASE(a_job_sharing_its_nodes_shows_its_share_of_each) {
  StatusPage page = sample_page();
  BOOST_TEST(!has(parsed(page), "share of its nodes"));  // a job alone on its nodes: nothing to say
  page.job->node_shares = {{"a0", 0.75}, {"b0", 0.25}};
  const auto html = parsed(page);
  BOOST_TEST(has(html, "a0 75 %, b0 25 %"), html.at("text"));
}

BOOST_AUTO_TEST_CASE(a_running_step_s_bytes_so_far_show_as_progress) {
  StatusPage page = sample_page();
  // Job 2's only step has moved 40 of its 100 bytes (the agents' progress reports).
  page.jobs["jobs"][1]["step_bytes_done"] = 40;
  page.job->step_bytes_done = 40;
  const auto html = parsed(page);
  BOOST_TEST(has(html, "40 %"), html.at("text"));
  BOOST_TEST(has(html, "40 B / 100 B"), html.at("text"));
  BOOST_TEST(has(html, "40 B of 100 B"), html.at("text"));
}
