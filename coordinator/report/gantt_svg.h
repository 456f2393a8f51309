// The Gantt chart of a job (docs/status-page.md): one row per node, time on x, and for
// every step the plan (outlined, hatched: the model's start and the node's predicted
// time) against what really happened (filled: the step's release and the node's own
// report). Shared by the coordinator's status page and `batonctl report --svg`.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace baton::report {

using Json = nlohmann::ordered_json;

// A standalone SVG document from a job as GET /v1/jobs/{id} answers it (docs/runtime.md):
// its report.steps[] with planned_start_seconds, started_seconds and nodes{}. Bars carry
// class "planned" or "measured" and data-node / data-step attributes. Throws
// std::invalid_argument naming what is missing when the job has no such report (not
// planned yet, or from a coordinator without per-node timing).
std::string gantt_svg(const Json& job);

}  // namespace baton::report
