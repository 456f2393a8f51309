// `batonctl plan reduction` and `batonctl plan allreduce`: reduction schedules on
// heterogeneous nodes (the SNF paper) in docs/formats.md's shapes.
#include "coordinator/batonctl/plan_problems.h"
#include "coordinator/schedule/reduction/checked.h"
#include "error/error.h"

#include <string>
#include <vector>

namespace baton::batonctl {
namespace {

namespace red = baton::schedule::reduction;

// Keeps every sum of up to kMaxNodes times finite and far from overflow.
constexpr double kMaxTime = 1e15;

std::vector<double> read_times(const Json& input) {
  const Json& times = require_array(require_member(input, "", "times"), "times", 1, red::kMaxNodes);
  std::vector<double> result;
  result.reserve(times.size());
  for (std::size_t p = 0; p < times.size(); ++p) {
    const std::string path = element_path("times", p);
    const double t = require_positive(times[p], path);
    if (t > kMaxTime) throw InputError(path + ": must be <= 1e15");
    result.push_back(t);
  }
  return result;
}

Json transfer_json(const red::Transfer& t) {
  return {{"src", t.src}, {"dst", t.dst}, {"start", t.start}, {"end", t.end}};
}

Json plan_reduction(const Json& input, const std::string& algorithm_name, std::uint64_t) {
  require_object(input, "", {"times", "destination"});
  const auto algorithm = red::parse_reduction_algorithm(algorithm_name);
  if (!algorithm) throw InputError("--algo: unknown algorithm '" + algorithm_name + "'");
  red::Problem problem{.times = read_times(input), .destination = 0};
  if (input.contains("destination")) {
    problem.destination = static_cast<std::size_t>(
        require_integer(input["destination"], "destination", 0, static_cast<std::int64_t>(problem.times.size()) - 1));
  }
  red::CheckedReduction plan;
  try {
    plan = red::checked_reduction(problem, *algorithm);
  } catch (const error::InvalidInput& e) {
    throw InputError(std::string("times: ") + e.what());  // a cap of the algorithm
  }
  Json transfers = Json::array();
  for (const red::Transfer& t : plan.schedule.transfers) transfers.push_back(transfer_json(t));
  return Json{{"problem", "reduction"},
              {"algorithm", algorithm_name},
              {"destination", problem.destination},
              {"makespan", plan.makespan},
              {"transfers", std::move(transfers)}};
}

Json plan_allreduce(const Json& input, const std::string& algorithm_name, std::uint64_t) {
  // "destination" is accepted so one file serves both problems, and ignored (docs/formats.md).
  require_object(input, "", {"times", "destination"});
  const auto algorithm = red::parse_allreduce_algorithm(algorithm_name);
  if (!algorithm) throw InputError("--algo: unknown algorithm '" + algorithm_name + "'");
  const std::vector<double> times = read_times(input);
  const red::CheckedAllReduce plan = red::checked_allreduce(times, *algorithm);
  Json transfers = Json::array();
  for (const red::PhasedTransfer& t : plan.schedule.transfers) {
    Json entry = transfer_json(t.transfer);
    entry["phase"] = std::string(red::name(t.phase));
    transfers.push_back(std::move(entry));
  }
  return Json{{"problem", "allreduce"},
              {"algorithm", algorithm_name},
              {"root", plan.schedule.root},
              {"makespan", plan.makespan},
              {"transfers", std::move(transfers)}};
}

}  // namespace

PlanProblem reduction_plan_problem() {
  return {.name = "reduction",
          .summary = "Reduction to one node on heterogeneous nodes (SNF, optimal DP or branch and bound)",
          .details = R"help(Input: {"times": [10, 5, 5, 5, 4, 2, 2], "destination": 0}
times[p] > 0 is the time node p needs to send its combined message to anyone;
destination (default 0) ends with the result and never sends.
Algorithms: snf (default; slowest node first, within 2x the optimum, optimal on
power-of-2 clusters and on two speeds at least 2x apart), dp (optimal; at most 2
distinct sender times and 512 nodes), bnb (optimal by guided branch and bound; at
most 24 nodes, and it gives up after 10,000,000 search-tree nodes), binomial (the
speed-blind binomial tree, for comparison).
Limits: at most 100,000 nodes; each time at most 1e15.
Output: {"problem": "reduction", "algorithm", "destination", "makespan",
"transfers": [{"src", "dst", "start", "end"}]}: every node but the destination
sends once, after all it receives; end - start = times[src].
Example:
  echo '{"times": [4, 1, 1, 2]}' | batonctl plan reduction - --algo dp)help",
          .algorithms = red::reduction_algorithm_names(),
          .default_algorithm = std::string(red::name(red::kDefaultReductionAlgorithm)),
          .plan = plan_reduction};
}

PlanProblem allreduce_plan_problem() {
  return {.name = "allreduce",
          .summary = "All-reduction on heterogeneous nodes: a reduction, then a broadcast of the result",
          .details = R"help(Input: {"times": [10, 5, 5, 5, 4, 2, 2]} (a "destination" member is ignored).
times[p] > 0 is the time node p needs to send a message to anyone.
Algorithms: snf-fnf (default; SNF reduction to the fastest node, then a
fastest-node-first broadcast from it: within 3.5x the optimum), binomial
(speed-blind binomial reduction to node 0 and binomial broadcast, for comparison).
Limits: at most 100,000 nodes; each time at most 1e15.
Output: {"problem": "allreduce", "algorithm", "root", "makespan",
"transfers": [{"src", "dst", "start", "end", "phase"}]}; phase is "reduce"
(a reduction to root) or "broadcast" (from root, once it holds the result).
Example:
  echo '{"times": [4, 1, 1, 2]}' | batonctl plan allreduce -)help",
          .algorithms = red::allreduce_algorithm_names(),
          .default_algorithm = std::string(red::name(red::kDefaultAllReduceAlgorithm)),
          .plan = plan_allreduce};
}

}  // namespace baton::batonctl
