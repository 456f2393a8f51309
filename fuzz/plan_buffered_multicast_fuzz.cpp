// `batonctl plan buffered-multicast` on fuzzed input (plan_input.h).
#include "fuzz/plan_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const baton::batonctl::PlanProblem problem = baton::batonctl::buffered_multicast_plan_problem();
  baton::fuzz::plan_from_input(problem, data, size);
  return 0;
}
