// The reduction and all-reduction algorithms by name, with their size caps, for batonctl,
// the coordinator and the benchmarks.
#pragma once

#include "coordinator/schedule/reduction/allreduce.h"
#include "coordinator/schedule/reduction/problem.h"
#include "coordinator/schedule/reduction/schedule.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace baton::schedule::reduction {

enum class ReductionAlgorithm { snf, dp, bnb, binomial };
enum class AllReduceAlgorithm { snf_fnf, binomial };

// "snf", "dp", "bnb", "binomial" and "snf-fnf", "binomial" (docs/formats.md).
std::string_view name(ReductionAlgorithm algorithm);
std::string_view name(AllReduceAlgorithm algorithm);
std::optional<ReductionAlgorithm> parse_reduction_algorithm(std::string_view name);
std::optional<AllReduceAlgorithm> parse_allreduce_algorithm(std::string_view name);
std::vector<std::string> reduction_algorithm_names();
std::vector<std::string> allreduce_algorithm_names();
inline constexpr ReductionAlgorithm kDefaultReductionAlgorithm = ReductionAlgorithm::snf;
inline constexpr AllReduceAlgorithm kDefaultAllReduceAlgorithm = AllReduceAlgorithm::snf_fnf;

// Caps, so no input can make a plan explode:
inline constexpr std::size_t kMaxNodes = 100'000;  // every algorithm
// dp fills a (f + 1) x (s + 1) table at O(f log s) look-ups a cell: about a second at 512.
inline constexpr std::size_t kMaxDpNodes = 512;
// bnb: at most 24 nodes, and it gives up after this many search-tree nodes (a few seconds).
inline constexpr std::size_t kMaxSearchNodes = 24;
inline constexpr std::uint64_t kSearchBudget = 10'000'000;

// Throws error::InvalidInput for a bad problem, a problem over the algorithm's cap, dp
// with more than two sender speeds, and bnb past its search budget.
Schedule plan_reduction(const Problem& problem, ReductionAlgorithm algorithm);
AllReduceSchedule plan_allreduce(std::span<const double> times, AllReduceAlgorithm algorithm);

}  // namespace baton::schedule::reduction
