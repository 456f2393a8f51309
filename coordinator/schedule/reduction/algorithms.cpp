#include "coordinator/schedule/reduction/algorithms.h"

#include "coordinator/schedule/name_table.h"
#include "coordinator/schedule/reduction/binomial_allreduce.h"
#include "coordinator/schedule/reduction/binomial_tree.h"
#include "coordinator/schedule/reduction/guided_search.h"
#include "coordinator/schedule/reduction/sender_order_schedule.h"
#include "coordinator/schedule/reduction/snf.h"
#include "coordinator/schedule/reduction/snf_fnf_allreduce.h"
#include "coordinator/schedule/reduction/two_class_dp.h"
#include "error/error.h"

namespace baton::schedule::reduction {
namespace {

constexpr NameTable<ReductionAlgorithm, 4> kReductionNames{{
    {ReductionAlgorithm::snf, "snf"},
    {ReductionAlgorithm::dp, "dp"},
    {ReductionAlgorithm::bnb, "bnb"},
    {ReductionAlgorithm::binomial, "binomial"},
}};
constexpr NameTable<AllReduceAlgorithm, 2> kAllReduceNames{{
    {AllReduceAlgorithm::snf_fnf, "snf-fnf"},
    {AllReduceAlgorithm::binomial, "binomial"},
}};

void check_size(std::size_t nodes, std::size_t cap, std::string_view algorithm) {
  if (nodes > cap) {
    throw error::InvalidInput(std::string(algorithm) + " plans at most " + std::to_string(cap) + " nodes, not " +
                              std::to_string(nodes));
  }
}

}  // namespace

std::string_view name(ReductionAlgorithm algorithm) {
  if (const auto found = find_name(kReductionNames, algorithm)) return *found;
  throw error::Bug("unknown reduction algorithm");
}

std::string_view name(AllReduceAlgorithm algorithm) {
  if (const auto found = find_name(kAllReduceNames, algorithm)) return *found;
  throw error::Bug("unknown all-reduction algorithm");
}

std::optional<ReductionAlgorithm> parse_reduction_algorithm(std::string_view text) {
  return find_value(kReductionNames, text);
}
std::optional<AllReduceAlgorithm> parse_allreduce_algorithm(std::string_view text) {
  return find_value(kAllReduceNames, text);
}
std::vector<std::string> reduction_algorithm_names() { return names_of(kReductionNames); }
std::vector<std::string> allreduce_algorithm_names() { return names_of(kAllReduceNames); }

Schedule plan_reduction(const Problem& problem, ReductionAlgorithm algorithm) {
  check(problem);
  check_size(problem.times.size(), kMaxNodes, name(algorithm));
  switch (algorithm) {
    case ReductionAlgorithm::snf: return snf(problem);
    case ReductionAlgorithm::binomial: return binomial_tree(problem);
    case ReductionAlgorithm::dp:
      check_size(problem.times.size(), kMaxDpNodes, "dp");
      return two_class_dp(problem).schedule;
    case ReductionAlgorithm::bnb: {
      check_size(problem.times.size(), kMaxSearchNodes, "bnb");
      const SearchResult result = guided_search(problem, {.max_nodes = kSearchBudget, .stop_requested = {}});
      if (!result.complete) {
        throw error::InvalidInput("bnb gave up after " + std::to_string(kSearchBudget) +
                                  " search-tree nodes without proving an optimum");
      }
      return schedule_sender_order(problem, result.order);
    }
  }
  throw error::Bug("unknown reduction algorithm");
}

AllReduceSchedule plan_allreduce(std::span<const double> times, AllReduceAlgorithm algorithm) {
  check({.times = {times.begin(), times.end()}, .destination = 0});
  check_size(times.size(), kMaxNodes, name(algorithm));
  switch (algorithm) {
    case AllReduceAlgorithm::snf_fnf: return snf_fnf_allreduce(times);
    case AllReduceAlgorithm::binomial: return binomial_allreduce(times);
  }
  throw error::Bug("unknown all-reduction algorithm");
}

}  // namespace baton::schedule::reduction
