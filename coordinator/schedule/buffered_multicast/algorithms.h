// The planners by name, as batonctl, the coordinator and the benchmark choose them.
#pragma once

#include "coordinator/schedule/buffered_multicast/problem.h"
#include "coordinator/schedule/buffered_multicast/schedule.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace baton::schedule::buffered_multicast {

// Procedure Coloring (input order at the receivers) and Procedure Ordered-Coloring.
enum class Algorithm { coloring, ordered_coloring };

// "coloring", "ordered-coloring" (docs/formats.md).
std::string_view name(Algorithm algorithm);
std::optional<Algorithm> parse_algorithm(std::string_view name);
std::vector<std::string> algorithm_names();
// Its bound is the tighter (Theorem 3.3 against 3.1).
inline constexpr Algorithm kDefaultAlgorithm = Algorithm::ordered_coloring;

Schedule plan(const Problem& problem, Algorithm algorithm);

}  // namespace baton::schedule::buffered_multicast
