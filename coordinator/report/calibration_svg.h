// A calibration drawn (docs/calibration.md): the aggregate rate between the groups as the
// number of concurrent flows grows, with D, the line of flows at d and k marked; and the
// steps of growing size β was fitted on, with the fitted line. From the typed report alone
// (calibration_report.h, what GET /v1/calibrations/ID answers), for the status page and
// /v1/calibrations/ID/curve.svg.
#pragma once

#include "coordinator/report/calibration_report.h"

#include <string>

namespace baton::report {

// Throws error::InvalidInput when the calibration has no result (not done).
std::string calibration_svg(const CalibrationReport& calibration);

// The status page's section for a calibration: its figures, when and how long, the chart.
std::string calibration_section_html(const CalibrationReport& calibration);

}  // namespace baton::report
