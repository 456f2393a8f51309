#include "coordinator/schedule/reduction/problem.h"

#include "error/error.h"

#include <cmath>
#include <string>

namespace baton::schedule::reduction {

void check(const Problem& problem) {
  if (problem.times.empty()) throw error::InvalidInput("reduction: no nodes");
  if (problem.destination >= problem.times.size()) {
    throw error::InvalidInput("reduction: destination " + std::to_string(problem.destination) + " is not a node");
  }
  for (std::size_t p = 0; p < problem.times.size(); ++p) {
    const double t = problem.times[p];
    if (!std::isfinite(t) || t <= 0) {
      throw error::InvalidInput("reduction: times[" + std::to_string(p) + "] must be finite and > 0");
    }
  }
}

std::vector<std::size_t> senders(const Problem& problem) {
  std::vector<std::size_t> result;
  result.reserve(problem.times.size());
  for (std::size_t p = 0; p < problem.times.size(); ++p) {
    if (p != problem.destination) result.push_back(p);
  }
  return result;
}

}  // namespace baton::schedule::reduction
