// Text for people from the coordinator's calibration JSON and a typed report's re-plans (docs/calibration.md):
// pure functions, unit-tested without a server. Missing fields show as "-".
#pragma once

#include "coordinator/json/input.h"
#include "coordinator/report/job_report.h"

#include <string>

namespace baton::batonctl {

// `GET /v1/calibrations/{id}`: its state, figures, time taken, the curve and each node's rate.
std::string calibration_text(const json::Json& calibration);

// `GET /v1/calibrations` as a table.
std::string calibrations_table(const json::Json& answer);

// A job report's platform (declared or measured) and re-plans, one line each; empty when
// the report has neither.
std::string platform_and_replans_text(const report::PlanReport& report);

}  // namespace baton::batonctl
