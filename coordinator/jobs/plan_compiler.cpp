#include "coordinator/jobs/plan_compiler.h"

#include "coordinator/jobs/step_time.h"
#include "coordinator/schedule/kpbs/bandwidth_bound.h"
#include "coordinator/schedule/kpbs/fluid.h"
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/validator.h"
#include "error/error.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

namespace baton::jobs {
namespace kpbs = schedule::kpbs;
namespace {

std::size_t index_of(const std::vector<std::string>& nodes, const std::string& node) {
  return static_cast<std::size_t>(std::find(nodes.begin(), nodes.end(), node) - nodes.begin());
}

// The transfers of one (sender, receiver) pair, consumed front to back as the steps
// hand out bytes.
struct PairQueue {
  std::vector<std::size_t> transfers;
  std::size_t next = 0;    // current transfer
  std::uint64_t done = 0;  // bytes of it already planned

  void take(std::uint64_t bytes, const std::vector<TransferSpec>& specs, Flow& flow) {
    while (bytes > 0) {
      if (next >= transfers.size()) throw error::Bug("plan compiler: a step moves more than the pair owes");
      const TransferSpec& t = specs[transfers[next]];
      const std::uint64_t n = std::min(bytes, t.length - done);
      flow.chunks.push_back({transfers[next], t.src_offset + done, t.dst_offset + done, n});
      flow.bytes += n;
      bytes -= n;
      done += n;
      if (done == t.length) {
        ++next;
        done = 0;
      }
    }
  }
};

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

// The busiest node's chunks, sent or received, at agent_chunk_seconds each.
double chunk_seconds(const StepPlan& step, std::size_t senders, std::size_t receivers) {
  std::vector<std::size_t> sent(senders), received(receivers);
  for (const Flow& f : step.flows) {
    sent[f.sender] += f.chunks.size();
    received[f.receiver] += f.chunks.size();
  }
  std::size_t busiest = 0;
  for (const std::size_t n : sent) busiest = std::max(busiest, n);
  for (const std::size_t n : received) busiest = std::max(busiest, n);
  return static_cast<double>(busiest) * agent_chunk_seconds;
}

// The pace of a plan's flows, for its nodes' predicted times (planned_nodes).
struct Pacing {
  double beta = 0;
  double d = 0;         // the plan's flow_rate
  bool shared = false;  // the flows of a step share the links (all-at-once, fluid)
  bool fluid = false;   // ... and all end with the step
};

// Every node's part of `step` (PlannedNode), senders first, in cluster order. A flow of a
// scheduled step takes β + its bytes at its pair's rate; all-at-once's flows share the
// node's link at d; a fluid step's all end with the step.
std::vector<PlannedNode> planned_nodes(const StepPlan& step, const Clusters& clusters, const Pacing& pacing) {
  std::vector<PlannedNode> out;
  const double beta = pacing.beta;
  const auto at = [&](double bytes, double rate) { return beta + (rate > 0 ? bytes / rate : 0); };
  const auto add = [&](const std::string& node, const Flow& flow) {
    auto it = std::ranges::find_if(out, [&](const PlannedNode& p) { return p.node == node; });
    if (it == out.end()) it = out.insert(out.end(), PlannedNode{node, 0, beta});
    it->bytes += flow.bytes;
    if (pacing.fluid) it->seconds = step.predicted_seconds;
    else if (pacing.shared) it->seconds = at(static_cast<double>(it->bytes), pacing.d);
    else it->seconds = std::max(it->seconds, at(static_cast<double>(flow.bytes), flow.rate > 0 ? flow.rate : pacing.d));
  };
  for (const Flow& f : step.flows) add(clusters.senders.at(f.sender), f);
  for (const Flow& f : step.flows) add(clusters.receivers.at(f.receiver), f);
  return out;
}

// One algorithm's schedule of the job's bytes and the model's time of each step.
struct Scheduled {
  kpbs::Algorithm algorithm = kpbs::Algorithm::oggp;
  kpbs::Schedule schedule;  // in bytes and seconds
  std::vector<double> step_seconds;
  double seconds = 0;
};

Scheduled scheduled(const kpbs::PlatformProblem& problem, const kpbs::Problem& normalized, const kpbs::NodeRates& rates,
                    kpbs::Algorithm algorithm) {
  Scheduled out;
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
// tie. `candidates` gets each one's prediction, fastest first.
Scheduled choose(const kpbs::PlatformProblem& problem, const kpbs::Problem& normalized, const kpbs::NodeRates& rates,
                 std::vector<std::pair<std::string, double>>& candidates) {
  std::vector<kpbs::Algorithm> tried{kpbs::kDefaultAlgorithm, kpbs::Algorithm::oggp, kpbs::Algorithm::ggp,
                                     kpbs::Algorithm::heuristic_weights, kpbs::Algorithm::heuristic_degrees};
  if (kpbs::has_node_rates(problem.platform)) tried.push_back(kpbs::Algorithm::fluid);
  std::optional<Scheduled> best;
  for (const kpbs::Algorithm algorithm : tried) {
    Scheduled one = scheduled(problem, normalized, rates, algorithm);
    candidates.emplace_back(std::string(kpbs::name(algorithm)), one.seconds);
    if (!best || one.seconds < best->seconds) best = std::move(one);
  }
  std::ranges::stable_sort(candidates, {}, &std::pair<std::string, double>::second);
  return std::move(*best);
}

// The independent check (kpbs/validator.h) of the schedule against the job's bytes.
void check(const kpbs::PlatformProblem& problem, const kpbs::Problem& normalized, const kpbs::NodeRates& rates,
           const Scheduled& chosen) {
  const bool fluid = chosen.algorithm == kpbs::Algorithm::fluid;
  const bool own_rates = !problem.platform.sender_rates.empty() || !problem.platform.receiver_rates.empty();
  kpbs::ValidationOptions options{.rate = kpbs::flow_rate(problem.platform),
                                  .kpbs_rules = kpbs::obeys_kpbs(chosen.algorithm),
                                  .tolerance = fluid ? 1e-12 : 0};
  if (own_rates || fluid) options.node_rates = &rates;
  options.shared = fluid;
  options.connection_limit = kpbs::kFluidConnectionLimit;
  const kpbs::Validation v = kpbs::validate(problem.bytes, normalized.k, normalized.beta, chosen.schedule, options);
  if (!v.ok())
    throw error::Bug("plan compiler: invalid " + std::string(kpbs::name(chosen.algorithm)) +
                     " schedule: " + v.errors.front());
}

}  // namespace

std::size_t StepPlan::flow_count() const {
  if (tasks.empty()) return flows.size();
  return static_cast<std::size_t>(std::ranges::count_if(tasks, [](const PlannedTask& t) { return t.kind == "send"; }));
}

CompiledPlan compile_plan(const Clusters& clusters, const std::vector<TransferSpec>& transfers,
                          const kpbs::Platform& platform, kpbs::Algorithm algorithm) {
  check_transfers(clusters, transfers);
  const std::size_t n1 = clusters.senders.size(), n2 = clusters.receivers.size();
  kpbs::PlatformProblem problem;
  problem.platform = platform;
  problem.bytes = kpbs::Matrix(n1, n2);
  std::vector<PairQueue> pairs(n1 * n2);
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const std::size_t s = index_of(clusters.senders, transfers[i].src_node);
    const std::size_t r = index_of(clusters.receivers, transfers[i].dst_node);
    problem.bytes.at(s, r) += static_cast<double>(transfers[i].length);
    pairs[s * n2 + r].transfers.push_back(i);
  }
  const kpbs::Problem normalized = kpbs::normalize(problem);
  const kpbs::NodeRates rates = kpbs::node_rates(platform, n1, n2);
  CompiledPlan plan;
  const Scheduled chosen = algorithm == kpbs::Algorithm::automatic ? choose(problem, normalized, rates, plan.candidates)
                                                                   : scheduled(problem, normalized, rates, algorithm);
  check(problem, normalized, rates, chosen);

  const bool fluid = chosen.algorithm == kpbs::Algorithm::fluid;
  const bool own_rates = !platform.sender_rates.empty() || !platform.receiver_rates.empty();
  const double d = kpbs::flow_rate(platform);
  plan.algorithm = std::string(kpbs::name(chosen.algorithm));
  plan.shared_links = !kpbs::obeys_kpbs(chosen.algorithm);
  plan.k = normalized.k;
  plan.flow_rate = d;
  plan.step_startup = platform.step_startup;
  if (!fluid) plan.lower_bound_seconds = kpbs::lower_bound(normalized).eta;
  plan.bandwidth_bound_seconds = kpbs::bandwidth_bound(problem.bytes, rates);
  const Pacing pacing{.beta = platform.step_startup, .d = d, .shared = plan.shared_links, .fluid = fluid};
  for (std::size_t s = 0; s < chosen.schedule.steps.size(); ++s) {
    const kpbs::Step& step = chosen.schedule.steps[s];
    StepPlan out;
    out.predicted_seconds = chosen.step_seconds[s];
    for (const kpbs::Transfer& t : step.transfers) {
      Flow flow{t.src, t.dst, 0, {}};
      // Each flow at its share of the step (fluid), or at its pair's rate; on a platform
      // without per-node rates, at the plan's d.
      if (fluid) flow.rate = t.amount / step.duration;
      else if (own_rates && !plan.shared_links) flow.rate = kpbs::pair_rate(rates, t.src, t.dst);
      pairs[t.src * n2 + t.dst].take(static_cast<std::uint64_t>(t.amount), transfers, flow);
      out.bytes += flow.bytes;
      out.flows.push_back(std::move(flow));
    }
    // An agent's step holds its own flows: a fluid plan promises at most its largest step's.
    if (fluid) plan.k = std::max(plan.k, static_cast<int>(out.flows.size()));
    out.nodes = planned_nodes(out, clusters, pacing);
    out.chunk_seconds = chunk_seconds(out, n1, n2);
    plan.predicted_seconds += out.predicted_seconds;
    plan.steps.push_back(std::move(out));
  }
  plan.model_seconds = plan.predicted_seconds;
  return plan;
}

}  // namespace baton::jobs
