#include "coordinator/schedule/multicast/algorithms.h"

#include "coordinator/schedule/multicast/earliest_available_first.h"
#include "coordinator/schedule/multicast/earliest_completion_first.h"
#include "coordinator/schedule/multicast/fastest_edge_first.h"
#include "coordinator/schedule/multicast/receiver_random_selection.h"
#include "coordinator/schedule/multicast/round_robin.h"
#include "coordinator/schedule/multicast/work_racing.h"
#include "error/error.h"

namespace baton::schedule::multicast {
namespace {

constexpr Algorithm kAll[] = {
    {BaseAlgorithm::fef, Placement::append},     {BaseAlgorithm::ecf, Placement::append},
    {BaseAlgorithm::wr, Placement::append},      {BaseAlgorithm::eaf, Placement::append},
    {BaseAlgorithm::rr, Placement::append},      {BaseAlgorithm::rrs, Placement::append},
    {BaseAlgorithm::ecf, Placement::preemptive}, {BaseAlgorithm::wr, Placement::preemptive},
    {BaseAlgorithm::eaf, Placement::preemptive}, {BaseAlgorithm::rr, Placement::preemptive},
    {BaseAlgorithm::rrs, Placement::preemptive},
};

std::string base_name(BaseAlgorithm base) {
  switch (base) {
    case BaseAlgorithm::fef: return "fef";
    case BaseAlgorithm::ecf: return "ecf";
    case BaseAlgorithm::wr: return "wr";
    case BaseAlgorithm::eaf: return "eaf";
    case BaseAlgorithm::rr: return "rr";
    case BaseAlgorithm::rrs: return "rrs";
  }
  throw error::Bug("unknown multicast algorithm");
}

}  // namespace

std::string name(Algorithm algorithm) {
  return base_name(algorithm.base) + (algorithm.placement == Placement::preemptive ? "p" : "");
}

std::optional<Algorithm> parse_algorithm(std::string_view text) {
  for (const Algorithm& a : kAll) {
    if (name(a) == text) return a;
  }
  return std::nullopt;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const Algorithm& a : kAll) names.push_back(name(a));
  return names;
}

Schedule plan(const Problem& problem, const PlanOptions& options) {
  const Placement placement = options.algorithm.placement;
  switch (options.algorithm.base) {
    case BaseAlgorithm::fef:
      if (placement == Placement::preemptive) throw error::InvalidInput("FEF has no preemptive form");
      return fastest_edge_first(problem);
    case BaseAlgorithm::ecf: return earliest_completion_first(problem, placement);
    case BaseAlgorithm::wr: return work_racing(problem, placement);
    case BaseAlgorithm::eaf: return earliest_available_first(problem, placement);
    case BaseAlgorithm::rr: return round_robin(problem, placement);
    case BaseAlgorithm::rrs: return receiver_random_selection(problem, placement, options.seed);
  }
  throw error::Bug("unknown multicast algorithm");
}

}  // namespace baton::schedule::multicast
