// The planners by name, as batonctl and the benchmark choose them.
#pragma once

#include "coordinator/schedule/buffered_multicast/problem.h"
#include "coordinator/schedule/buffered_multicast/schedule.h"

#include <functional>
#include <string>
#include <vector>

namespace baton::schedule::buffered_multicast {

struct Algorithm {
  std::string name;  // "coloring", "ordered-coloring"
  std::function<Schedule(const Problem&)> plan;
};

// Procedure Coloring (input order at the receivers) and Procedure Ordered-Coloring.
const std::vector<Algorithm>& algorithms();

// Throws error::InvalidInput for an unknown name.
const Algorithm& algorithm(const std::string& name);

}  // namespace baton::schedule::buffered_multicast
