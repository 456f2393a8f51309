#include "coordinator/jobs/redistribution_schedule.h"

#include "coordinator/jobs/step_time.h"
#include "coordinator/schedule/kpbs/fluid.h"
#include "coordinator/schedule/kpbs/validator.h"
#include "error/error.h"

#include <algorithm>
#include <map>
#include <optional>

namespace baton::jobs {
namespace kpbs = schedule::kpbs;
namespace {

// The model's time of one step (step_time.h), through the k flows' share of the backbone
// (k d). A scheduled step's flows each run at d, so it lasts β + its longest flow / d. An
// unscheduled (all-at-once) step's flows share the links instead, so the longest flow / d
// is no prediction at all (0.99 s for a 20 s step at k = 3 on 10 x 10 nodes); the busiest
// node's bytes and all the bytes through the backbone then bound it.
double predicted_seconds(const kpbs::Step& step, double beta, double d, int k) {
  std::map<std::size_t, double> senders, receivers;
  StepLoad load;
  for (const kpbs::Transfer& t : step.transfers) {
    load.longest_flow = std::max(load.longest_flow, t.amount);
    load.busiest_node = std::max({load.busiest_node, senders[t.src] += t.amount, receivers[t.dst] += t.amount});
    load.bytes += t.amount;
  }
  return step_seconds(beta, d, k * d, load);
}

// One algorithm's schedule of the job's bytes and the model's time of each step.
RedistributionSchedule scheduled(const kpbs::PlatformProblem& problem, const kpbs::Problem& normalized,
                                 const kpbs::NodeRates& rates, kpbs::Algorithm algorithm) {
  RedistributionSchedule out;
  out.algorithm = algorithm;
  const bool fluid = algorithm == kpbs::Algorithm::fluid;
  out.schedule = fluid ? kpbs::fluid(problem.bytes, rates) : kpbs::to_bytes(kpbs::plan(normalized, algorithm), problem);
  // A scheduled step on nodes of their own rates lasts β + its longest flow at its pair's
  // rate (to_bytes' duration); without them, step_time.h's model, as before.
  const bool at_own_duration = fluid || (kpbs::has_node_rates(problem.platform) && kpbs::obeys_kpbs(algorithm));
  const double beta = problem.platform.step_startup, d = kpbs::flow_rate(problem.platform);
  for (const kpbs::Step& step : out.schedule.steps) {
    const double seconds = at_own_duration ? beta + step.duration : predicted_seconds(step, beta, d, normalized.k);
    out.step_seconds.push_back(seconds);
    out.seconds += seconds;
  }
  return out;
}

// `auto` (docs/redistribution.md, "auto"): the papers' algorithms and, where the nodes'
// rates differ, the fluid plan; the one of least predicted time, the earlier listed on a
// tie.
RedistributionSchedule choose(const kpbs::PlatformProblem& problem, const kpbs::Problem& normalized,
                              const kpbs::NodeRates& rates) {
  std::vector<kpbs::Algorithm> tried{kpbs::kDefaultAlgorithm, kpbs::Algorithm::oggp, kpbs::Algorithm::ggp,
                                     kpbs::Algorithm::heuristic_weights, kpbs::Algorithm::heuristic_degrees};
  if (kpbs::has_node_rates(problem.platform)) tried.push_back(kpbs::Algorithm::fluid);
  std::optional<RedistributionSchedule> best;
  std::vector<std::pair<std::string, double>> candidates;
  for (const kpbs::Algorithm algorithm : tried) {
    RedistributionSchedule one = scheduled(problem, normalized, rates, algorithm);
    candidates.emplace_back(std::string(kpbs::name(algorithm)), one.seconds);
    if (!best || one.seconds < best->seconds) best = std::move(one);
  }
  std::ranges::stable_sort(candidates, {}, &std::pair<std::string, double>::second);
  best->candidates = std::move(candidates);
  return std::move(*best);
}

// The independent check (kpbs/validator.h) of the schedule against the job's bytes.
void check(const kpbs::PlatformProblem& problem, const RedistributionSchedule& chosen) {
  const bool fluid = chosen.algorithm == kpbs::Algorithm::fluid;
  kpbs::ValidationOptions options{.rate = kpbs::flow_rate(problem.platform),
                                  .kpbs_rules = kpbs::obeys_kpbs(chosen.algorithm),
                                  .tolerance = fluid ? 1e-12 : 0};
  const bool own_rates = !problem.platform.sender_rates.empty() || !problem.platform.receiver_rates.empty();
  if (own_rates || fluid) options.node_rates = &chosen.rates;
  options.shared = fluid;
  options.connection_limit = kpbs::kFluidConnectionLimit;
  const kpbs::Validation v =
      kpbs::validate(problem.bytes, chosen.normalized.k, chosen.normalized.beta, chosen.schedule, options);
  if (!v.ok())
    throw error::Bug("plan compiler: invalid " + std::string(kpbs::name(chosen.algorithm)) +
                     " schedule: " + v.errors.front());
}

}  // namespace

RedistributionSchedule schedule_redistribution(const kpbs::PlatformProblem& problem, kpbs::Algorithm algorithm) {
  const kpbs::Problem normalized = kpbs::normalize(problem);
  const kpbs::NodeRates rates = kpbs::node_rates(problem.platform, problem.bytes.senders(), problem.bytes.receivers());
  RedistributionSchedule out = algorithm == kpbs::Algorithm::automatic
                                   ? choose(problem, normalized, rates)
                                   : scheduled(problem, normalized, rates, algorithm);
  out.normalized = normalized;
  out.rates = rates;
  check(problem, out);
  return out;
}

}  // namespace baton::jobs
