// The redistribution algorithms by name, for batonctl, the coordinator and the benchmarks.
#pragma once

#include "coordinator/schedule/kpbs/peeling.h"
#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/schedule.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace baton::schedule::kpbs {

// fluid and automatic plan on each node's rate, which only a job's platform gives
// (jobs/plan_compiler.h): `plan` below does not take them.
enum class Algorithm { oggp, ggp, heuristic_weights, heuristic_degrees, all_at_once, oggp_plus, fluid, automatic };

// "oggp", "ggp", "h-weight", "h-degree", "all-at-once" (docs/formats.md), "oggp-plus",
// "fluid", "auto".
std::string_view name(Algorithm algorithm);
// The algorithms `plan` takes (`batonctl plan`'s), by name.
std::optional<Algorithm> parse_algorithm(std::string_view name);
std::vector<std::string> algorithm_names();
// Those and "fluid" and "auto": what a job may name.
std::optional<Algorithm> parse_job_algorithm(std::string_view name);
std::vector<std::string> job_algorithm_names();
// The coordinator's planner for jobs that name none: OGGP+, never worse than OGGP, which
// met issue 7's targets on the paper's Section 8 benchmark (docs/redistribution-beyond-oggp.md).
inline constexpr Algorithm kDefaultAlgorithm = Algorithm::oggp_plus;
// `batonctl plan redistribution` without --algo: OGGP, as docs/formats.md's contract lists it
// first; scripts that compare its output with the paper's OGGP keep their meaning.
inline constexpr Algorithm kPlanCommandDefault = Algorithm::oggp;

// Whether the algorithm's schedules respect k and the 1-port rule (all but all-at-once and
// fluid).
bool obeys_kpbs(Algorithm algorithm);

// Throws error::InvalidInput for fluid and automatic.
Schedule plan(const Problem& problem, Algorithm algorithm, const PeelOptions& options = {});

}  // namespace baton::schedule::kpbs
