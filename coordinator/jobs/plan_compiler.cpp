#include "coordinator/jobs/plan_compiler.h"

#include "coordinator/jobs/node_index.h"
#include "coordinator/jobs/redistribution_schedule.h"
#include "coordinator/schedule/kpbs/bandwidth_bound.h"
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "error/error.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>

namespace baton::jobs {
namespace kpbs = schedule::kpbs;
namespace {

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
  std::unordered_map<std::string_view, std::size_t> position;  // a node's entry in `out`, by its name (linear, not N²)
  const double beta = pacing.beta;
  const auto at = [&](double bytes, double rate) { return beta + (rate > 0 ? bytes / rate : 0); };
  const auto add = [&](const std::string& node, const Flow& flow) {
    const auto [found, added] = position.try_emplace(node, out.size());
    if (added) out.push_back(PlannedNode{node, 0, beta});
    PlannedNode& entry = out[found->second];
    entry.bytes += flow.bytes;
    if (pacing.fluid) entry.seconds = step.predicted_seconds;
    else if (pacing.shared) entry.seconds = at(static_cast<double>(entry.bytes), pacing.d);
    else
      entry.seconds =
          std::max(entry.seconds, at(static_cast<double>(flow.bytes), flow.rate > 0 ? flow.rate : pacing.d));
  };
  for (const Flow& f : step.flows) add(clusters.senders.at(f.sender), f);
  for (const Flow& f : step.flows) add(clusters.receivers.at(f.receiver), f);
  return out;
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
  const NodeIndex senders(clusters.senders), receivers(clusters.receivers);
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    // check_transfers found every node in its cluster.
    const std::size_t s = *senders.find(transfers[i].src_node);
    const std::size_t r = *receivers.find(transfers[i].dst_node);
    problem.bytes.at(s, r) += static_cast<double>(transfers[i].length);
    pairs[s * n2 + r].transfers.push_back(i);
  }
  const RedistributionSchedule chosen = schedule_redistribution(problem, algorithm);
  const kpbs::Problem& normalized = chosen.normalized;
  const kpbs::NodeRates& rates = chosen.rates;
  CompiledPlan plan;
  plan.candidates = chosen.candidates;

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
