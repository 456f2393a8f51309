#include "coordinator/schedule/buffered_multicast/checked.h"

#include "coordinator/schedule/buffered_multicast/validator.h"
#include "error/error.h"

#include <string>

namespace baton::schedule::buffered_multicast {

CheckedPlan checked_plan(const Problem& problem, Algorithm algorithm) {
  const std::string algorithm_name(name(algorithm));
  CheckedPlan out{.schedule = plan(problem, algorithm), .rounds = 0, .degree = degree(problem), .bound = 0};
  const Validation check = validate(problem, out.schedule);
  if (!check.ok()) throw error::Bug("the " + algorithm_name + " plan failed validation: " + check.summary());
  out.rounds = check.rounds;
  out.bound = round_bound(out.degree, problem.buffers);
  // Theorems 3.1 and 3.3 promise these; a longer plan is a bug, not a bad input.
  const std::uint64_t promised =
      algorithm == Algorithm::coloring ? coloring_round_bound(out.degree, problem.buffers) : out.bound;
  if (out.rounds > promised) {
    throw error::Bug("the " + algorithm_name + " plan takes " + std::to_string(out.rounds) +
                     " rounds, more than its theorem's " + std::to_string(promised));
  }
  return out;
}

}  // namespace baton::schedule::buffered_multicast
