// The Gantt chart of a job (docs/status-page.md) as a standalone SVG document, drawn from
// its layout (gantt_layout.h): planned bars outlined and hatched, measured bars filled,
// measured steps as bands behind them. Shared by the coordinator's status page and
// `batonctl report --svg`.
#pragma once

#include "coordinator/report/job_report.h"

#include <string>

namespace baton::report {

// Bars carry class "planned" or "measured" and data-node / data-step attributes. Throws
// error::InvalidInput as gantt_layout does.
std::string gantt_svg(const JobReport& job);

}  // namespace baton::report
