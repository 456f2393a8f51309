#include "coordinator/schedule/kpbs/all_at_once.h"

namespace baton::schedule::kpbs {

Schedule all_at_once(const Problem& problem) {
  check(problem);
  Step step;
  for (std::size_t i = 0; i < problem.times.senders(); ++i) {
    for (std::size_t j = 0; j < problem.times.receivers(); ++j) {
      if (problem.times.at(i, j) > 0) step.transfers.push_back(Transfer{i, j, problem.times.at(i, j)});
    }
  }
  Schedule schedule;
  if (!step.transfers.empty()) schedule.steps.push_back(std::move(step));
  set_durations(schedule);
  return schedule;
}

}  // namespace baton::schedule::kpbs
