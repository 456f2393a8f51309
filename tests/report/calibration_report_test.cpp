// The typed calibration report (coordinator/report/calibration_report.h) against the API's
// JSON: a calibration and the list as a coordinator answers them read back into the types
// and write out as the same documents, and an answer that is not one is refused naming the
// field.
#include "coordinator/report/calibration_report.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace br = baton::report;
using baton::json::InputError;
using br::Json;

namespace {

// Written out by hand in the shape docs/calibration.md documents: a done calibration, its
// request's fields first, its result's after.
Json done_calibration() {
  return Json::parse(R"({"id": "3", "state": "done", "error": "", "requested": "2026-11-24T09:59:50Z",
    "finished": "2026-11-24T10:00:00Z", "seconds": 9.5, "senders": ["s1", "s2"], "receivers": ["r1"],
    "d": 1700000.0, "D": 11900000.0, "beta": 0.0062, "k": 7, "beta_one_flow": 0.0058, "saturated": true,
    "nodes": [{"node": "s1", "role": "sender", "rate": 1710000.0}, {"node": "r1", "role": "receiver", "rate": 1700000.0}],
    "curve": [{"flows": 1, "bytes": 680000, "seconds": 0.406, "rate": 1700000.0}],
    "sizes": [{"flows": 1, "bytes": 42500, "seconds": 0.031}],
    "flow_seconds": 0.4, "probe_steps": 25, "probe_bytes": 61200000})");
}

Json running_calibration() {
  return Json::parse(R"({"id": "4", "state": "running", "error": "", "requested": "2026-11-24T10:01:00Z",
    "finished": "", "seconds": 0.0, "senders": ["s1"], "receivers": ["r1"], "phase": "curve", "probe_steps": 3})");
}

std::string calibration_refusal(const Json& answer) {
  try {
    br::parse_calibration_report(answer);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(calibration_report)

BOOST_AUTO_TEST_CASE(a_calibration_reads_back_into_the_type_and_writes_out_the_same) {
  const br::CalibrationReport done = br::parse_calibration_report(done_calibration());
  BOOST_TEST((done.state == br::CalibrationState::done));
  BOOST_TEST_REQUIRE(done.result.has_value());
  BOOST_TEST(done.result->k == 7);
  BOOST_TEST(done.result->curve.size() == 1u);
  BOOST_TEST(done.result->nodes[1].role == "receiver");
  BOOST_TEST(!done.progress.has_value());
  BOOST_TEST(br::to_json(done) == done_calibration());
  BOOST_TEST(br::to_json(done).dump() == done_calibration().dump());  // the same order too

  const br::CalibrationReport running = br::parse_calibration_report(running_calibration());
  BOOST_TEST(!running.result.has_value());
  BOOST_TEST_REQUIRE(running.progress.has_value());
  BOOST_TEST(running.progress->phase == "curve");
  BOOST_TEST(running.progress->steps == 3);
  BOOST_TEST(br::to_json(running).dump() == running_calibration().dump());
}

BOOST_AUTO_TEST_CASE(the_list_reads_back_and_writes_out_the_same) {
  const Json list = Json::parse(R"({"calibrations": [
    {"id": "3", "state": "done", "requested": "2026-11-24T09:59:50Z", "finished": "2026-11-24T10:00:00Z",
     "d": 1700000.0, "D": 11900000.0, "beta": 0.0062, "k": 7},
    {"id": "4", "state": "cancelled", "requested": "2026-11-24T10:01:00Z", "finished": "2026-11-24T10:01:01Z"}]})");
  const std::vector<br::CalibrationLine> lines = br::parse_calibration_list(list);
  BOOST_TEST_REQUIRE(lines.size() == 2u);
  BOOST_TEST_REQUIRE(lines[0].model.has_value());
  BOOST_TEST(lines[0].model->D == 11900000.0);
  BOOST_TEST((lines[1].state == br::CalibrationState::cancelled));
  BOOST_TEST(!lines[1].model.has_value());
  BOOST_TEST(br::calibration_list_json(lines).dump() == list.dump());
  Json bad = list;
  bad["calibrations"][0]["k"] = "seven";
  BOOST_CHECK_EXCEPTION(br::parse_calibration_list(bad), InputError, [](const InputError& e) {
    return std::string(e.what()) == "calibrations[0].k: must be a number, not string";
  });
}

BOOST_AUTO_TEST_CASE(a_mistyped_or_missing_field_is_refused_by_name) {
  Json answer = done_calibration();
  answer["D"] = "fast";
  BOOST_TEST(calibration_refusal(answer) == "D: must be a number, not string");
  answer = done_calibration();
  answer["curve"][0]["flows"] = -1;
  BOOST_TEST(calibration_refusal(answer) == "curve[0].flows: must be >= 0");
  answer = done_calibration();
  answer.erase("probe_bytes");
  BOOST_TEST(calibration_refusal(answer) == "probe_bytes: missing");
  answer = done_calibration();
  answer["state"] = "finished";
  BOOST_TEST(calibration_refusal(answer) == "state: unknown calibration state \"finished\"");
  answer = running_calibration();
  answer["probe_steps"] = true;
  BOOST_TEST(calibration_refusal(answer).find("probe_steps: must be") == 0u, calibration_refusal(answer));
  answer = running_calibration();
  answer["senders"][0] = 1;
  BOOST_TEST(calibration_refusal(answer) == "senders[0]: must be a string");
  BOOST_TEST(calibration_refusal(Json::array()) == "calibration: must be an object");
}

BOOST_AUTO_TEST_SUITE_END()
