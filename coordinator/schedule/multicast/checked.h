// A multiple multicast plan that passed its independent validator, the one way batonctl and
// the coordinator's plan compiler get one: plan (or take given task lists), validate
// (validator.h: deliveries, relays, every time against the simulator) and check the
// completion time against the earliest-reach lower bound (lower_bound.h).
#pragma once

#include "coordinator/schedule/multicast/algorithms.h"

#include <string_view>
#include <vector>

namespace baton::schedule::multicast {

struct CheckedMulticast {
  std::vector<TaskList> tasks;  // with the simulator's times
  double completion_time = 0;
  double lower_bound = 0;
};

// `problem` must be well formed. Throws error::Bug naming the algorithm if the plan
// fails validation or ends before the lower bound.
CheckedMulticast checked_multicast(const Problem& problem, const PlanOptions& options);

// The same checks of task lists built elsewhere (the coordinator's baselines, `source`
// names them); their times are replaced by the simulator's.
CheckedMulticast checked_task_lists(const Problem& problem, std::vector<TaskList> tasks, std::string_view source);

}  // namespace baton::schedule::multicast
