// A calibration as the coordinator reports it (docs/calibration.md): what
// `GET /v1/calibrations/ID` answers, and a line of `GET /v1/calibrations`, that batonctl
// prints and the status page draws. One type each, one serializer to the API's JSON and one
// parser back from it, as job_report.h's; the JSON's field names are a contract (extended,
// never renamed or dropped).
#pragma once

#include "coordinator/calibration/calibration.h"
#include "coordinator/calibration/calibration_state.h"
#include "coordinator/json/input.h"
#include "coordinator/report/job_report.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace baton::report {

// Where a calibration stands ("state"): the journal's enum and names.
using calibration::CalibrationState;
using calibration::name;
// Throws json::InputError naming `path` for a state it does not know.
CalibrationState parse_calibration_state(const std::string& text, const std::string& path);

// A running calibration's progress: its probe phase and the probe steps so far.
struct ProbeProgress {
  std::string phase;
  int steps = 0;  // "probe_steps"
};

struct CalibrationReport {
  std::string id;
  CalibrationState state = CalibrationState::queued;
  std::string error;
  std::string requested, finished;              // UTC, ISO 8601; finished is empty before it ended
  double seconds = 0;                           // how long it took, first probe to last
  std::vector<std::string> senders, receivers;  // as requested
  std::optional<ProbeProgress> progress;        // while running ("phase", "probe_steps")
  // Once done: its figures and points, whose fields (calibration::to_json) sit at the top
  // level of the JSON.
  std::optional<calibration::Calibration> result;
};

// A line of the list: the figures of a done one.
struct CalibrationLine {
  std::string id;
  CalibrationState state = CalibrationState::queued;
  std::string requested, finished;
  std::optional<ModelLine> model;  // "d", "D", "beta", "k" once done
};

// `GET /v1/calibrations/ID`'s answer, and back. The parser throws json::InputError naming
// the field that is missing or of the wrong type; members it does not know are ignored.
Json to_json(const CalibrationReport& calibration);
CalibrationReport parse_calibration_report(const Json& calibration);

// `GET /v1/calibrations`'s answer ({"calibrations": [...]}, oldest first), and back.
Json calibration_list_json(const std::vector<CalibrationLine>& lines);
std::vector<CalibrationLine> parse_calibration_list(const Json& answer);

}  // namespace baton::report
