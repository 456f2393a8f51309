// Text for people from the coordinator's calibration JSON (read through the typed
// report/calibration_report.h) and a typed report's re-plans (docs/calibration.md): pure
// functions, unit-tested without a server. Figures a calibration does not have yet show as "-".
#pragma once

#include "coordinator/json/input.h"
#include "coordinator/report/calibration_report.h"
#include "coordinator/report/job_report.h"

#include <string>

namespace baton::batonctl {

// `GET /v1/calibrations/{id}`: its state, figures, time taken, the curve and each node's rate.
// Throws json::InputError naming a field the answer lacks or mistypes.
std::string calibration_text(const json::Json& calibration);

// `GET /v1/calibrations` as a table; throws as calibration_text.
std::string calibrations_table(const json::Json& answer);

// A job report's platform (declared or measured) and re-plans, one line each; empty when
// the report has neither.
std::string platform_and_replans_text(const report::PlanReport& report);

}  // namespace baton::batonctl
