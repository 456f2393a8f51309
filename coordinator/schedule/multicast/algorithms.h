// The multicast schedulers by name, for batonctl, the coordinator and the benchmarks.
#pragma once

#include "coordinator/schedule/multicast/partial_schedule.h"
#include "coordinator/schedule/multicast/problem.h"
#include "coordinator/schedule/multicast/schedule.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace baton::schedule::multicast {

enum class BaseAlgorithm { fef, ecf, wr, eaf, rr, rrs };

// A base algorithm and the placement of its sends: ECFP is {ecf, preemptive}. FEF exists
// only with the append placement (the paper defines no FEFP).
struct Algorithm {
  BaseAlgorithm base = BaseAlgorithm::wr;
  Placement placement = Placement::preemptive;
  friend bool operator==(const Algorithm&, const Algorithm&) = default;
};

// "fef", "ecf", "wr", "eaf", "rr", "rrs", "ecfp", "wrp", "eafp", "rrp", "rrsp" (docs/formats.md).
std::string name(Algorithm algorithm);
std::optional<Algorithm> parse_algorithm(std::string_view name);
std::vector<std::string> algorithm_names();
inline constexpr Algorithm kDefaultAlgorithm{BaseAlgorithm::wr, Placement::preemptive};

// Limits of one plan. ECF and ECFP evaluate every (sender, receiver, message) triple in
// every iteration (O(N^5) for all-to-all): at these limits they take about 5 s (measured on
// 32 broadcasts to 255 nodes); the receiver-first algorithms take under 1 s.
inline constexpr std::size_t kMaxPlanNodes = 256;
inline constexpr std::size_t kMaxPlanMulticasts = 4096;
inline constexpr std::size_t kMaxPlanDeliveries = 8192;

struct PlanOptions {
  Algorithm algorithm = kDefaultAlgorithm;
  std::uint64_t seed = 1;  // for RRS and RRSP
};

// `problem` must be well formed (problem_error empty). The times in the schedule are the
// algorithm's own bookkeeping; validate() checks them against the simulator.
Schedule plan(const Problem& problem, const PlanOptions& options);

}  // namespace baton::schedule::multicast
