// A calibration drawn (docs/calibration.md): the aggregate rate between the groups as the
// number of concurrent flows grows, with D, the line of flows at d and k marked; and the
// steps of growing size β was fitted on, with the fitted line. From the API's JSON alone
// (GET /v1/calibrations/ID), for the status page and /v1/calibrations/ID/curve.svg.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace baton::report {

// Throws std::invalid_argument when the calibration has no result (not done).
std::string calibration_svg(const nlohmann::ordered_json& calibration);

// The status page's section for a calibration: its figures, when and how long, the chart.
std::string calibration_section_html(const nlohmann::ordered_json& calibration);

}  // namespace baton::report
