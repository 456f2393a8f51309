// batonctl's text for calibrations and a job's platform and re-plans, from JSON written
// here (a job's through the typed report's parser): the figures with their units, the curve and the nodes, and one line per re-plan.
#include "coordinator/batonctl/calibration_text.h"

#include <boost/test/unit_test.hpp>

namespace bb = baton::batonctl;
using baton::json::Json;

BOOST_AUTO_TEST_SUITE(calibration_report)

BOOST_AUTO_TEST_CASE(a_calibration_reads_as_its_figures_curve_and_nodes) {
  const Json c = Json::parse(R"({"id": "3", "state": "done", "error": "", "requested": "2026-11-24T09:59:50Z",
    "finished": "2026-11-24T10:00:00Z", "seconds": 9.46, "senders": ["s1"], "receivers": ["r1"],
    "d": 1700000, "D": 11900000, "beta": 0.0062, "k": 7, "beta_one_flow": 0.0058, "saturated": true,
    "probe_steps": 25, "probe_bytes": 61200000, "flow_seconds": 0.4,
    "curve": [{"flows": 1, "bytes": 680000, "seconds": 0.406, "rate": 1700000}],
    "sizes": [{"flows": 1, "bytes": 680000, "seconds": 0.406}],
    "nodes": [{"node": "s1", "role": "sender", "rate": 1710000}]})");
  const std::string text = bb::calibration_text(c);
  BOOST_TEST(text.find("calibration 3: done\n") == 0u, text);
  BOOST_TEST(text.find("d     1.70 MB/s") != std::string::npos, text);
  BOOST_TEST(text.find("D     11.90 MB/s") != std::string::npos, text);
  BOOST_TEST(text.find("beta  6.2 ms") != std::string::npos, text);
  BOOST_TEST(text.find("k     7") != std::string::npos, text);
  BOOST_TEST(text.find("in 9.5 s, 25 probe steps, 61.20 MB") != std::string::npos, text);
  BOOST_TEST(text.find("s1    sender  1.71 MB/s") != std::string::npos, text);
  const std::string failed =
      bb::calibration_text(Json::parse(R"({"id": "4", "state": "failed", "error": "agent r2 refused the plan",
        "requested": "2026-11-24T10:01:00Z", "finished": "2026-11-24T10:01:02Z", "seconds": 0,
        "senders": ["s1"], "receivers": ["r2"]})"));
  BOOST_TEST(failed == "calibration 4: failed: agent r2 refused the plan\n");
  const std::string running = bb::calibration_text(Json::parse(R"({"id": "5", "state": "running", "error": "",
        "requested": "2026-11-24T10:02:00Z", "finished": "", "seconds": 0, "senders": ["s1"], "receivers": ["r1"],
        "phase": "curve", "probe_steps": 4})"));
  BOOST_TEST(running == "calibration 5: running (curve, 4 probe steps)\n");
  // An answer the typed report cannot read is said so, naming the field.
  BOOST_CHECK_EXCEPTION(bb::calibration_text(Json::parse(R"({"id": "6", "state": "done"})")), baton::json::InputError,
                        [](const baton::json::InputError& e) { return std::string(e.what()) == "error: missing"; });
}

BOOST_AUTO_TEST_CASE(the_list_reads_as_a_table_with_the_figures_of_the_done_ones) {
  const std::string table = bb::calibrations_table(Json::parse(R"({"calibrations": [
    {"id": "1", "state": "done", "requested": "2026-11-24T09:59:50Z", "finished": "2026-11-24T10:00:00Z",
     "d": 1700000, "D": 11900000, "beta": 0.0062, "k": 7},
    {"id": "2", "state": "queued", "requested": "2026-11-24T10:01:00Z", "finished": ""}]})"));
  BOOST_TEST(table.find("ID  STATE   D          BACKBONE    BETA    K  MEASURED") == 0u, table);
  BOOST_TEST(table.find("1   done    1.70 MB/s  11.90 MB/s  6.2 ms  7  2026-11-24T10:00:00Z") != std::string::npos,
             table);
  BOOST_TEST(table.find("2   queued  -          -           -       -") != std::string::npos, table);
}

BOOST_AUTO_TEST_CASE(a_reports_platform_and_replans_read_as_one_line_each) {
  // Parsed from the API's JSON, as batonctl receives it: the parser and the text together.
  const Json job = Json::parse(R"({"id": "7", "state": "done", "error": "", "submitted": "2026-11-24T10:00:00Z",
    "algorithm": "oggp-plus", "senders": ["s1"], "receivers": ["r1"], "bytes": 1, "bytes_done": 1, "step": 0,
    "steps": 1, "elapsed_seconds": 1.0, "report": {"algorithm": "oggp-plus", "k": 5, "flow_rate": 2500000,
    "steps": [], "predicted_seconds": 1, "measured_steps_seconds": 1, "measured_seconds": 1,
    "platform": {"source": "calibration", "calibration": "3", "sender_rate": 2500000,
    "receiver_rate": 2500000, "backbone_rate": 12500000, "step_startup": 0.006, "replan_on_drift": true},
    "replans": [{"at_step": 12, "when": "2026-11-24T10:00:09Z", "elapsed_seconds": 9.31,
      "why": "steps 9-11 ran 2.04x the model's time", "cause": "backbone",
      "old": {"k": 5, "d": 2500000, "D": 12500000, "beta": 0.006}, "new": {"k": 2, "d": 2500000, "D": 6250000,
      "beta": 0.006}, "predicted_remaining_seconds_kept": 10.5, "predicted_remaining_seconds_after": 10.2},
     {"at_step": 20, "when": "2026-11-24T10:00:14Z", "elapsed_seconds": 14.2,
      "why": "the trial's step 19 ran 4.08x the model's time", "cause": "wider backbone trial failed",
      "old": {"k": 4, "d": 2500000, "D": 25000000, "beta": 0.006}, "new": {"k": 2, "d": 2500000, "D": 6250000,
      "beta": 0.006}, "predicted_remaining_seconds_kept": 4.1, "predicted_remaining_seconds_after": 3.9,
      "cost_seconds": 0.25}]}})");
  const baton::report::JobReport parsed = baton::report::parse_job_report(job);
  BOOST_TEST_REQUIRE(parsed.report.has_value());
  BOOST_TEST(bb::platform_and_replans_text(*parsed.report) ==
             "platform: calibration (calibration 3), d 2.50 MB/s per sender, 2.50 MB/s per receiver, D 12.50 MB/s, "
             "beta 6.0 ms, re-planned on drift\n"
             "re-planned at step 12 (9.3 s in): steps 9-11 ran 2.04x the model's time; the backbone: k 5 -> 2, the "
             "rest predicted 10.50 s as planned, 10.20 s re-planned\n"
             "re-planned at step 20 (14.2 s in): the trial's step 19 ran 4.08x the model's time; the wider backbone "
             "trial failed: k 4 -> 2, the rest predicted 4.10 s as planned, 3.90 s re-planned, the failed trial cost "
             "0.25 s\n");
  // Serialized again, the fields come back as they were (a contract: none dropped).
  const Json again = baton::report::to_json(parsed);
  BOOST_TEST(again.at("report").at("platform") == job.at("report").at("platform"));
  BOOST_TEST(again.at("report").at("replans") == job.at("report").at("replans"));
  BOOST_TEST(bb::platform_and_replans_text(baton::report::PlanReport{}) == "");
  // Its platform is read by the platform's one reader (json/platform.h), naming the field.
  Json mistyped = job;
  mistyped["report"]["platform"]["backbone_rate"] = "fast";
  BOOST_CHECK_EXCEPTION(baton::report::parse_job_report(mistyped), baton::json::InputError,
                        [](const baton::json::InputError& e) {
                          return std::string(e.what()) == "report.platform.backbone_rate: must be a number, not string";
                        });
}

BOOST_AUTO_TEST_SUITE_END()
