// The report and table formatting of batonctl's job commands, from hand-written JSON.
#include "coordinator/batonctl/job_text.h"

#include "coordinator/report/markup.h"

#include <boost/test/unit_test.hpp>

#include <string>

using baton::json::Json;
namespace batonctl = baton::batonctl;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A job as the coordinator answers it, with `fields` replacing the defaults, typed as
// batonctl reads it.
baton::report::JobReport job(const std::string& fields) {
  Json answer = Json::parse(R"({"id": "7", "state": "running", "error": "", "submitted": "t", "algorithm": "oggp",
    "senders": ["a0"], "receivers": ["b0"], "bytes": 0, "bytes_done": 0, "step": 0, "steps": 0, "elapsed_seconds": 0})");
  answer.update(Json::parse(fields));
  return baton::report::parse_job_report(answer);
}

baton::report::PlanReport plan(const std::string& report) { return *job(R"({"report": )" + report + "}").report; }
}  // namespace

BOOST_AUTO_TEST_CASE(table_columns_are_aligned) {
  const std::string t = batonctl::format_table({"A", "BB"}, {{"xyz", "1"}, {"q", "22"}});
  BOOST_TEST(t == "A    BB\nxyz  1\nq    22\n");
}

BOOST_AUTO_TEST_CASE(bytes_and_seconds) {
  BOOST_TEST(baton::report::bytes_text(512) == "512 B");
  BOOST_TEST(baton::report::bytes_text(30000000) == "30.00 MB");
  BOOST_TEST(batonctl::format_seconds(0.8021) == "0.802");
}

BOOST_AUTO_TEST_CASE(report_has_steps_and_totals_with_the_ratio) {
  const auto report = plan(R"({"algorithm": "oggp", "k": 3, "flow_rate": 1e7, "measured_steps_seconds": 2.6, "steps": [
      {"index": 0, "flows": 3, "bytes": 30000000, "predicted_seconds": 0.802, "planned_start_seconds": 0,
       "measured_seconds": 0.85, "attempts": 1},
      {"index": 1, "flows": 2, "bytes": 1500, "predicted_seconds": 1.608, "planned_start_seconds": 0.802,
       "measured_seconds": 1.75, "attempts": 2}],
    "predicted_seconds": 2.41, "lower_bound_seconds": 2.2, "measured_seconds": 2.6})");
  const std::string t = batonctl::report_text(report);
  BOOST_TEST(has(t, "algorithm: oggp  k: 3"), t);
  BOOST_TEST(has(t, "STEP  FLOWS  BYTES     PREDICTED S  MEASURED S  ATTEMPTS\n"), t);
  BOOST_TEST(has(t, "0     3      30.00 MB  0.802        0.850       1\n"), t);
  BOOST_TEST(has(t, "1     2      1.50 kB   1.608        1.750       2\n"), t);
  // 2.6 / 2.41 = 1.0788...
  BOOST_TEST(has(t,
                 "total: measured 2.600 s, predicted 2.410 s, lower bound 2.200 s, "
                 "measured/predicted 1.08\n"),
             t);
}

BOOST_AUTO_TEST_CASE(steps_that_have_not_run_show_dashes) {
  const std::string t = batonctl::report_text(plan(R"({"algorithm": "oggp", "k": 1, "flow_rate": 1e7,
    "steps": [{"index": 0, "flows": 1, "bytes": 10, "predicted_seconds": 0.5, "planned_start_seconds": 0,
               "nodes": {"a0": {"planned_bytes": 10, "planned_seconds": 0.5}}}],
    "predicted_seconds": 0, "lower_bound_seconds": 0, "measured_steps_seconds": 0, "measured_seconds": 0})"));
  BOOST_TEST(has(t, "0     1      10 B   0.500        -           -\n"), t);
  BOOST_TEST(has(t, "measured/predicted -"), t);
}

BOOST_AUTO_TEST_CASE(progress_line_has_step_bytes_rate_and_eta) {
  const auto running = job(R"({"steps": 4, "step": 1, "bytes": 40000000, "bytes_done": 10000000})");
  BOOST_TEST(batonctl::progress_line(running, 5000000) == "running  step 2/4  10.00 MB / 40.00 MB  5.00 MB/s  ETA 6 s");
  BOOST_TEST(batonctl::progress_line(running, -1) == "running  step 2/4  10.00 MB / 40.00 MB");
  const auto queued = job(R"({"state": "queued", "bytes": 10})");
  BOOST_TEST(batonctl::progress_line(queued, -1) == "queued  0 B / 10 B");
}

BOOST_AUTO_TEST_CASE(jobs_and_agents_tables) {
  const std::string jobs = batonctl::jobs_table(Json::parse(R"({"jobs": [
      {"id": "7", "state": "running", "algorithm": "oggp", "steps": 3, "step": 1,
       "bytes": 30000000, "bytes_done": 1000, "submitted": "2026-11-22T08:00:00Z"}]})"));
  BOOST_TEST(has(jobs, "ID  STATE    ALGORITHM  STEPS  STEP  BYTES     DONE     SUBMITTED\n"), jobs);
  BOOST_TEST(has(jobs, "7   running  oggp       3      1     30.00 MB  1.00 kB  2026-11-22T08:00:00Z\n"), jobs);
  const std::string agents = batonctl::agents_table(Json::parse(R"({"agents": [
      {"node": "a0", "alive": true, "addresses": ["10.0.0.1:7000", "10.0.1.1:7000"],
       "transports": ["tcp"], "rate": 12500000, "last_heartbeat_age": 0.5, "job": null}]})"));
  BOOST_TEST(has(agents, "a0    yes    10.0.0.1:7000,10.0.1.1:7000  tcp         12.50 MB  0.500"), agents);
  // A node in two jobs that share it, and an older coordinator's single "job".
  const std::string shared = batonctl::agents_table(Json::parse(R"({"agents": [
      {"node": "a0", "alive": true, "addresses": ["10.0.0.1:7000"], "transports": ["tcp"], "rate": 1,
       "last_heartbeat_age": 0.5, "job": "7", "jobs": [{"id": "7", "share": 0.75}, {"id": "9", "share": 0.25}]},
      {"node": "a1", "alive": true, "addresses": ["10.0.0.2:7000"], "transports": ["tcp"], "rate": 1,
       "last_heartbeat_age": 0.5, "job": "calibration-2", "jobs": [{"id": "calibration-2"}]},
      {"node": "a2", "alive": true, "addresses": ["10.0.0.3:7000"], "transports": ["tcp"], "rate": 1,
       "last_heartbeat_age": 0.5, "job": "5"}]})"));
  BOOST_TEST(has(shared, "JOBS (SHARE)\n"), shared);
  BOOST_TEST(has(shared, "7 (75 %), 9 (25 %)\n"), shared);
  BOOST_TEST(has(shared, "calibration-2\n"), shared);
  BOOST_TEST(has(shared, "  5\n"), shared);
}

BOOST_AUTO_TEST_CASE(status_text_lists_fields_and_report) {
  const std::string t = batonctl::job_status_text(job(R"({"id": "9", "state": "failed",
      "error": "agent b1 lost", "report": {"algorithm": "oggp", "k": 1, "flow_rate": 1, "steps": [],
      "predicted_seconds": 2.0, "measured_steps_seconds": 0, "measured_seconds": 3.0, "lower_bound_seconds": 1.5}})"));
  BOOST_TEST(has(t, "id:         9\n"), t);
  BOOST_TEST(has(t, "error:      agent b1 lost\n"), t);
  BOOST_TEST(has(t, "measured/predicted 1.50"), t);
}

BOOST_AUTO_TEST_CASE(status_text_shows_a_running_jobs_share_of_each_node) {
  const std::string t = batonctl::job_status_text(job(R"({"id": "9", "state": "running",
      "node_shares": {"s0": 0.75, "r0": 0.5}})"));
  BOOST_TEST(has(t, "node shares:  r0 50 %, s0 75 %\n"), t);
  BOOST_TEST(!has(batonctl::job_status_text(job(R"({"id": "9", "state": "done"})")), "node shares"));
}

BOOST_AUTO_TEST_CASE(status_text_counts_a_kept_plans_exchanges) {
  const std::string t = batonctl::job_status_text(job(R"({"id": "9", "state": "done",
      "exchanges": {"done": 12, "failed": 1, "last_seconds": 0.0071, "last_error": "node c0: step 2: timed out"}})"));
  BOOST_TEST(has(t, "exchanges:  12 done, 1 failed, the last in 0.007 s; last failure: node c0: step 2: timed out\n"),
             t);
  BOOST_TEST(!has(batonctl::job_status_text(job(R"({"id": "9", "state": "done"})")), "exchanges"));
}

BOOST_AUTO_TEST_CASE(nodes_table_shows_each_node_of_each_step) {
  const std::string t = batonctl::nodes_table(plan(R"({"algorithm": "oggp", "k": 1, "flow_rate": 1e7,
    "steps": [{"index": 0, "flows": 1, "bytes": 1500000, "predicted_seconds": 0.039, "planned_start_seconds": 0,
               "started_seconds": 0.008, "measured_seconds": 0.03, "attempts": 1,
               "nodes": {"a0": {"planned_bytes": 1500000, "planned_seconds": 0.039, "bytes": 1500000, "seconds": 0.029},
                         "b0": {"planned_bytes": 1500000, "planned_seconds": 0.039}}}],
    "predicted_seconds": 0.039, "lower_bound_seconds": 0, "measured_steps_seconds": 0.03, "measured_seconds": 0.04})"));
  BOOST_TEST(has(t, "STEP  NODE  PLANNED START  PLANNED S  PLANNED BYTES  STARTED  MEASURED S  BYTES\n"), t);
  BOOST_TEST(has(t, "0     a0    0.000          0.039      1.50 MB        0.008    0.029       1.50 MB\n"), t);
  BOOST_TEST(has(t, "0     b0    0.000          0.039      1.50 MB        0.008    -           -\n"), t);
}

BOOST_AUTO_TEST_CASE(progress_counts_the_running_step_s_bytes_so_far) {
  // Step 2 of 4 has moved 3 MB of its bytes (the agents' progress reports) after two
  // finished steps of 10 MB: 13 MB of 40 MB, 27 MB left at 5 MB/s = 5.4 s.
  const auto running = job(R"({"state": "running", "steps": 4, "step": 2, "bytes": 40000000,
      "bytes_done": 10000000, "step_bytes_done": 3000000})");
  BOOST_TEST(batonctl::progress_line(running, 5000000) == "running  step 3/4  13.00 MB / 40.00 MB  5.00 MB/s  ETA 5 s");
  const std::string jobs = batonctl::jobs_table(Json::parse(R"({"jobs": [{"id": "7", "state": "running",
      "bytes": 40000000, "bytes_done": 10000000, "step_bytes_done": 3000000}]})"));
  BOOST_TEST(has(jobs, "7   running  -          -      -     40.00 MB  13.00 MB"), jobs);
}

BOOST_AUTO_TEST_CASE(notes_explain_unpaced_all_at_once_and_times_below_the_bound) {
  const auto oggp = plan(
      R"({"algorithm": "oggp", "k": 1, "flow_rate": 1e7, "measured_steps_seconds": 0, "steps": [], "predicted_seconds": 2.0,
      "measured_seconds": 1.9, "lower_bound_seconds": 1.8})");
  BOOST_TEST(batonctl::report_notes(oggp).empty());
  // Measured 1.731 s against a lower bound of 1.850 s (the issue's run).
  const auto below = plan(
      R"({"algorithm": "oggp", "k": 1, "flow_rate": 1e7, "measured_steps_seconds": 0, "steps": [], "predicted_seconds": 1.93,
      "measured_seconds": 1.731, "lower_bound_seconds": 1.85})");
  const std::string t = batonctl::report_text(below);
  BOOST_TEST(has(t, "note: measured is below the lower bound"), t);
  BOOST_TEST(has(t, "start-up"), t);
  const auto baseline = plan(
      R"({"algorithm": "all-at-once", "k": 1, "flow_rate": 1e7, "measured_steps_seconds": 0, "steps": [], "predicted_seconds": 6.0,
      "measured_seconds": 0.3, "lower_bound_seconds": 1.85})");
  const std::string notes = batonctl::report_notes(baseline);
  BOOST_TEST(has(notes, "note: all-at-once is the unscheduled baseline and runs unpaced"), notes);
  BOOST_TEST(has(notes, "note: measured is below the lower bound"), notes);
}

BOOST_AUTO_TEST_CASE(agents_table_names_the_peers_refused_at_the_handshake) {
  const std::string agents = batonctl::agents_table(Json::parse(R"({"agents": [], "refused": [
      {"address": "10.0.0.9", "node": "b3", "reason": "wrong cluster secret", "attempts": 12,
       "last_attempt_age": 0.8}, {"address": "10.0.0.7", "node": "", "reason": "expected hello", "attempts": 1,
       "last_attempt_age": 30.0}]})"));
  BOOST_TEST(has(agents,
                 "refused: 10.0.0.9 claiming to be node b3: wrong cluster secret (attempts: 12, the last "
                 "0.800 s ago)\n"),
             agents);
  BOOST_TEST(has(agents, "refused: 10.0.0.7: expected hello (attempts: 1, the last 30.000 s ago)\n"), agents);
}

BOOST_AUTO_TEST_CASE(agents_table_says_the_heartbeat_interval_when_the_coordinator_does) {
  const std::string told = batonctl::agents_table(Json::parse(R"({"agents": [], "heartbeat_seconds": 8})"));
  BOOST_TEST(has(told, "heartbeat interval: 8.000 s (an agent silent for 3 is dead)\n"), told);
  const std::string older = batonctl::agents_table(Json::parse(R"({"agents": []})"));
  BOOST_TEST(!has(older, "heartbeat interval"), older);
}

// A re-plan's cause is typed: each written as the report has always said it, read back,
// and a cause the report does not know refused naming where.
BOOST_AUTO_TEST_CASE(a_replan_cause_round_trips_and_an_unknown_one_is_refused) {
  namespace report = baton::report;
  for (const report::ReplanCause cause :
       {report::ReplanCause::backbone, report::ReplanCause::nodes, report::ReplanCause::startup,
        report::ReplanCause::trial, report::ReplanCause::trial_failed}) {
    report::ReplanLine line;
    line.cause = cause;
    line.why = "w";
    const Json written = report::replan_json(line);
    BOOST_TEST((report::parse_replan(written, "replans[0]").cause == cause));
  }
  BOOST_TEST(report::name(report::ReplanCause::startup) == "step start-up");
  BOOST_TEST(report::name(report::ReplanCause::trial_failed) == "wider backbone trial failed");
  try {
    report::parse_replan_cause("senders", "replans[2].cause");
    BOOST_FAIL("an unknown cause was read");
  } catch (const baton::json::InputError& e) {
    BOOST_TEST(std::string(e.what()) == "replans[2].cause: unknown re-plan cause \"senders\"");
  }
}
