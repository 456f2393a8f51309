// A plan that passed its independent validator, the one way batonctl and the coordinator's
// plan compiler get a reduction or all-reduction schedule: plan with the named algorithm,
// validate (validator.h), and take the validator's makespan.
#pragma once

#include "coordinator/schedule/reduction/algorithms.h"

#include <span>
#include <string_view>

namespace baton::schedule::reduction {

struct CheckedReduction {
  Schedule schedule;
  double makespan = 0;  // recomputed by the validator
};

struct CheckedAllReduce {
  AllReduceSchedule schedule;
  double makespan = 0;
};

// Throws what plan_reduction / plan_allreduce throw for a bad problem (error::InvalidInput),
// and error::Bug naming the algorithm and the broken rule if the plan fails validation.
CheckedReduction checked_reduction(const Problem& problem, ReductionAlgorithm algorithm);
// The same checks of a schedule built elsewhere (the coordinator's flat baseline, `source`
// names it).
CheckedReduction checked_reduction_schedule(const Problem& problem, Schedule schedule, std::string_view source);
CheckedAllReduce checked_allreduce(std::span<const double> times, AllReduceAlgorithm algorithm);

}  // namespace baton::schedule::reduction
