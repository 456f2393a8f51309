#include "coordinator/schedule/multicast/checked.h"

#include "coordinator/schedule/multicast/lower_bound.h"
#include "coordinator/schedule/multicast/simulator.h"
#include "coordinator/schedule/multicast/validator.h"
#include "error/error.h"

#include <string>

namespace baton::schedule::multicast {
namespace {

// Validates the lists with the times they carry.
CheckedMulticast check(const Problem& problem, std::vector<TaskList> tasks, const std::string& what) {
  const Validation check = validate(problem, tasks);
  if (!check.ok()) throw error::Bug("the " + what + " plan failed validation: " + check.errors.front());
  const double completion = completion_time(tasks);
  const double bound = earliest_reach_lower_bound(problem);
  if (bound > completion * (1 + 1e-9)) throw error::Bug("the " + what + " plan ends before the lower bound");
  return {std::move(tasks), completion, bound};
}

}  // namespace

CheckedMulticast checked_multicast(const Problem& problem, const PlanOptions& options) {
  return check(problem, plan(problem, options).tasks, name(options.algorithm));
}

CheckedMulticast checked_task_lists(const Problem& problem, std::vector<TaskList> tasks, std::string_view source) {
  const std::string what(source);
  const Simulation simulation = simulate(problem, tasks);
  if (simulation.cannot_run) throw error::Bug("the " + what + " plan cannot run: " + simulation.cannot_run->reason);
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    for (std::size_t t = 0; t < tasks[i].size(); ++t) {
      tasks[i][t].start = simulation.times[i][t].start;
      tasks[i][t].end = simulation.times[i][t].end;
    }
  }
  return check(problem, std::move(tasks), what);
}

}  // namespace baton::schedule::multicast
