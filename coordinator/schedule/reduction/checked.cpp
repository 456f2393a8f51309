#include "coordinator/schedule/reduction/checked.h"

#include "coordinator/schedule/reduction/validator.h"
#include "error/error.h"

#include <string>

namespace baton::schedule::reduction {
namespace {

void require_valid(const Verdict& verdict, std::string_view algorithm) {
  if (verdict.broken) {
    throw error::Bug("the " + std::string(algorithm) + " plan failed validation: " + verdict.broken->reason);
  }
}

}  // namespace

CheckedReduction checked_reduction(const Problem& problem, ReductionAlgorithm algorithm) {
  return checked_reduction_schedule(problem, plan_reduction(problem, algorithm), name(algorithm));
}

CheckedReduction checked_reduction_schedule(const Problem& problem, Schedule schedule, std::string_view source) {
  const Verdict verdict = validate_reduction(problem, schedule);
  require_valid(verdict, source);
  return {std::move(schedule), verdict.makespan};
}

CheckedAllReduce checked_allreduce(std::span<const double> times, AllReduceAlgorithm algorithm) {
  AllReduceSchedule schedule = plan_allreduce(times, algorithm);
  const Verdict verdict = validate_allreduce(times, schedule);
  require_valid(verdict, name(algorithm));
  return {std::move(schedule), verdict.makespan};
}

}  // namespace baton::schedule::reduction
