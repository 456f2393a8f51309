// The typed job report (coordinator/report/job_report.h) against the API's JSON: a job as
// a coordinator answers it reads back into the type and writes out as the same document,
// and an answer that is not a job is refused naming the field.
#include "coordinator/report/job_report.h"

#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>
#include <vector>

using baton::json::InputError;
using baton::report::Json;
using baton::report::parse_job_report;
using baton::report::to_json;

namespace {

// Written out by hand in the shape docs/runtime.md documents: a job of two steps, the first
// measured, the second not run yet.
Json running_job() {
  return Json::parse(R"({"id": "7", "state": "running", "error": "", "submitted": "2026-11-22T08:00:00Z",
    "algorithm": "oggp", "senders": ["a0", "a1"], "receivers": ["b0"], "bytes": 3000, "bytes_done": 2000,
    "step": 1, "steps": 2, "elapsed_seconds": 1.25,
    "report": {"algorithm": "oggp", "k": 2, "flow_rate": 1000.0, "steps": [
      {"index": 0, "flows": 2, "bytes": 2000, "predicted_seconds": 1.01, "planned_start_seconds": 0.0,
       "measured_seconds": 1.2, "attempts": 2, "started_seconds": 0.05,
       "nodes": {"a0": {"planned_bytes": 1000, "planned_seconds": 1.01, "bytes": 1000, "seconds": 1.1},
                 "a1": {"planned_bytes": 1000, "planned_seconds": 1.01, "bytes": 1000, "seconds": 1.15},
                 "b0": {"planned_bytes": 2000, "planned_seconds": 1.01, "bytes": 2000, "seconds": 1.18}}},
      {"index": 1, "flows": 1, "bytes": 1000, "predicted_seconds": 1.01, "planned_start_seconds": 1.01,
       "nodes": {"a1": {"planned_bytes": 1000, "planned_seconds": 1.01},
                 "b0": {"planned_bytes": 1000, "planned_seconds": 1.01}}}],
      "predicted_seconds": 2.02, "lower_bound_seconds": 2.0, "measured_steps_seconds": 1.2,
      "measured_seconds": 1.25, "kind": "redistribution", "model_seconds": 2.02}, "kind": "redistribution",
    "step_bytes_done": 0})");
}

// A reduce (docs/collectives.md): one dataflow step with its tasks, the model's makespan,
// no lower bound.
Json reduce_job() {
  return Json::parse(R"({"id": "8", "state": "done", "error": "", "submitted": "2026-11-22T08:00:00Z",
    "algorithm": "snf", "senders": ["n1", "n2"], "receivers": ["n0"], "bytes": 8000, "bytes_done": 8000,
    "step": 1, "steps": 1, "elapsed_seconds": 0.5,
    "report": {"algorithm": "snf", "k": 1, "flow_rate": 0.0, "steps": [
      {"index": 0, "flows": 2, "bytes": 8000, "predicted_seconds": 0.3, "planned_start_seconds": 0.0,
       "measured_seconds": 0.4, "attempts": 1, "started_seconds": 0.02,
       "nodes": {"n0": {"planned_bytes": 12000, "planned_seconds": 0.3, "bytes": 12000, "seconds": 0.35}},
       "tasks": [{"node": "n1", "id": 1, "kind": "send", "peer": "n2", "bytes": 4000,
                  "planned_start_seconds": 0.0, "planned_end_seconds": 0.1, "started_seconds": 0.03,
                  "ended_seconds": 0.12},
                 {"node": "n2", "id": 2, "kind": "combine", "folds": ["n2", "n1"], "bytes": 4000,
                  "planned_start_seconds": 0.1, "planned_end_seconds": 0.11}]}],
      "predicted_seconds": 0.3, "measured_steps_seconds": 0.4, "measured_seconds": 0.5, "kind": "reduce",
      "model_seconds": 0.25}, "kind": "reduce", "step_bytes_done": 0})");
}

std::string job_report_refusal(const Json& answer) {
  try {
    parse_job_report(answer);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_job_reads_into_the_type_and_writes_out_as_the_same_document) {
  const Json answer = running_job();
  const auto job = parse_job_report(answer);
  BOOST_TEST(job.id == "7");
  BOOST_TEST(job.receivers.size() == 1u);
  BOOST_TEST_REQUIRE(job.report.has_value());
  BOOST_TEST(job.report->steps[0].attempts.value() == 2u);
  BOOST_TEST(job.report->steps[0].nodes->at(2).node == "b0");
  BOOST_TEST(job.report->steps[0].nodes->at(2).seconds.value() == 1.18);
  BOOST_TEST(!job.report->steps[1].measured_seconds.has_value());
  BOOST_TEST(!job.report->steps[1].nodes->at(0).bytes.has_value());
  // Field for field, in the same order (ordered_json compares member order too).
  BOOST_TEST(to_json(job).dump() == answer.dump());
}

// A step's nodes keep their order, and a node listed twice is written once, in its first
// place with its last line (what adding its key to the object again would do).
BOOST_AUTO_TEST_CASE(a_steps_nodes_keep_their_order_and_a_node_listed_twice_is_written_once) {
  auto job = parse_job_report(running_job());
  std::vector<baton::report::NodeLine>& nodes = *job.report->steps[0].nodes;
  nodes.push_back(
      {.node = "a0", .planned_bytes = 7, .planned_seconds = 0.5, .bytes = std::nullopt, .seconds = std::nullopt});
  const Json written = to_json(job).at("report").at("steps").at(0).at("nodes");
  std::vector<std::string> keys;
  for (const auto& [key, value] : written.items()) keys.push_back(key);
  BOOST_TEST(keys == (std::vector<std::string>{"a0", "a1", "b0"}), written.dump());
  BOOST_TEST(written.at("a0").dump() == R"({"planned_bytes":7,"planned_seconds":0.5})");
}

// A redistribution's T* and whose rates it is of (issue 41) read and write back.
BOOST_AUTO_TEST_CASE(a_redistributions_bound_and_its_rates_read_and_write_back) {
  Json answer = running_job();
  answer["report"]["bandwidth_bound_seconds"] = 1.9;
  answer["report"]["bandwidth_bound_rates"] = "each node's rate: TCP goodput";
  const auto job = parse_job_report(answer);
  BOOST_TEST_REQUIRE(job.report.has_value());
  BOOST_TEST(job.report->bandwidth_bound_seconds.value() == 1.9);
  BOOST_TEST(job.report->bandwidth_bound_rates.value() == "each node's rate: TCP goodput");
  BOOST_TEST(to_json(job).dump() == answer.dump());
}

BOOST_AUTO_TEST_CASE(a_collectives_tasks_and_model_read_and_write_back) {
  const Json answer = reduce_job();
  const auto job = parse_job_report(answer);
  BOOST_TEST(job.kind == "reduce");
  BOOST_TEST(!job.report->lower_bound_seconds.has_value());
  BOOST_TEST(job.report->model_seconds.value() == 0.25);
  const auto& tasks = job.report->steps[0].tasks;
  BOOST_TEST_REQUIRE(tasks.size() == 2u);
  BOOST_TEST(tasks[0].peer == "n2");
  BOOST_TEST(tasks[0].ended_seconds.value() == 0.12);
  BOOST_TEST(tasks[1].folds == (std::vector<std::string>{"n2", "n1"}), boost::test_tools::per_element());
  BOOST_TEST(!tasks[1].started_seconds.has_value());
  BOOST_TEST(to_json(job).dump() == answer.dump());
}

BOOST_AUTO_TEST_CASE(a_report_of_an_older_coordinator_reads_as_a_redistribution) {
  // Before the collectives: no "kind", "model_seconds" nor "step_bytes_done"; every other
  // field as today.
  Json older = running_job();
  older.erase("kind");
  older.erase("step_bytes_done");
  older["report"].erase("kind");
  older["report"].erase("model_seconds");
  const auto job = parse_job_report(older);
  BOOST_TEST(job.kind == "redistribution");
  BOOST_TEST(job.report->kind == "redistribution");
  BOOST_TEST(!job.report->model_seconds.has_value());
  // Written out again, the older fields keep their values and order; the new ones come
  // after them.
  Json again = to_json(job);
  BOOST_TEST(again["kind"] == "redistribution");
  BOOST_TEST(again["step_bytes_done"] == 0);
  again.erase("kind");
  again.erase("step_bytes_done");
  again["report"].erase("kind");
  BOOST_TEST(again.dump() == older.dump());
}

// Jobs sharing nodes (docs/runtime.md, "Jobs that share nodes"): a running job's share of
// each node, and a re-plan for a share, read and write back.
BOOST_AUTO_TEST_CASE(a_running_jobs_node_shares_and_a_re_plan_for_its_share_read_and_write_back) {
  const Json replan = Json::parse(R"json({"at_step": 1, "when": "2026-11-22T08:00:01Z",
    "elapsed_seconds": 1.2, "why": "its share of its nodes' rates is now 0.25 (was 1)", "cause": "node share",
    "old": {"k": 2, "d": 1000.0, "D": 2000.0, "beta": 0.01}, "share": 0.25})json");
  const baton::report::ReplanLine line = baton::report::parse_replan(replan, "replans[0]");
  BOOST_TEST(line.share.value() == 0.25);
  BOOST_TEST((line.cause == baton::report::ReplanCause::share));
  BOOST_TEST(baton::report::replan_json(line).dump() == replan.dump());
  Json answer = running_job();
  answer["node_shares"] = Json{{"a0", 0.25}, {"b0", 0.5}};
  const auto job = parse_job_report(answer);
  BOOST_TEST(job.node_shares.at("a0") == 0.25);
  BOOST_TEST(to_json(job).dump() == answer.dump());
  BOOST_TEST(baton::report::node_shares_text(job.node_shares) == "a0 25 %, b0 50 %");
  answer["node_shares"]["a0"] = "half";
  BOOST_TEST(job_report_refusal(answer).find("node_shares") != std::string::npos, job_report_refusal(answer));
}

BOOST_AUTO_TEST_CASE(a_job_not_yet_planned_has_no_report) {
  Json answer = running_job();
  answer.erase("report");
  const auto job = parse_job_report(answer);
  BOOST_TEST(!job.report.has_value());
  BOOST_TEST(to_json(job).dump() == answer.dump());
}

BOOST_AUTO_TEST_CASE(an_answer_that_is_not_a_job_is_refused_naming_the_field) {
  Json answer = running_job();
  answer.erase("state");
  BOOST_TEST(job_report_refusal(answer) == "state: missing");
  answer = running_job();
  answer["report"]["steps"][0]["nodes"]["a1"]["seconds"] = "soon";
  BOOST_TEST(job_report_refusal(answer) == "report.steps[0].nodes.a1.seconds: must be a number, not string");
  answer = running_job();
  answer["report"]["steps"][1]["bytes"] = -1;
  BOOST_TEST(job_report_refusal(answer) == "report.steps[1].bytes: must be >= 0");
  answer = running_job();
  answer["senders"][1] = 3;
  BOOST_TEST(job_report_refusal(answer) == "senders[1]: must be a string");
  answer = reduce_job();
  answer["report"]["steps"][0]["tasks"][1]["folds"] = "n2";
  BOOST_TEST(job_report_refusal(answer) == "report.steps[0].tasks[1].folds: must be an array, not string");
  BOOST_TEST(job_report_refusal(Json::array()) == "job: must be an object");
}
