#include "coordinator/jobs/plan_compiler.h"

#include "coordinator/jobs/step_time.h"
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/validator.h"
#include "error/error.h"

#include <algorithm>
#include <map>

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

// Every node's part of `step` (PlannedNode), senders first, in cluster order.
std::vector<PlannedNode> planned_nodes(const StepPlan& step, const Clusters& clusters, bool shared, double beta,
                                       double d) {
  std::vector<PlannedNode> out;
  const auto at_d = [&](std::uint64_t bytes) { return beta + (d > 0 ? static_cast<double>(bytes) / d : 0); };
  const auto add = [&](const std::string& node, const Flow& flow) {
    auto it = std::ranges::find_if(out, [&](const PlannedNode& p) { return p.node == node; });
    if (it == out.end()) it = out.insert(out.end(), PlannedNode{node, 0, beta});
    it->bytes += flow.bytes;
    it->seconds = shared ? at_d(it->bytes) : std::max(it->seconds, at_d(flow.bytes));
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
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const std::size_t s = index_of(clusters.senders, transfers[i].src_node);
    const std::size_t r = index_of(clusters.receivers, transfers[i].dst_node);
    problem.bytes.at(s, r) += static_cast<double>(transfers[i].length);
    pairs[s * n2 + r].transfers.push_back(i);
  }
  const kpbs::Problem normalized = kpbs::normalize(problem);
  const kpbs::Schedule schedule = kpbs::to_bytes(kpbs::plan(normalized, algorithm), problem);
  const double d = kpbs::flow_rate(platform);
  const kpbs::Validation check = kpbs::validate(problem.bytes, normalized.k, normalized.beta, schedule,
                                                {.rate = d, .kpbs_rules = kpbs::obeys_kpbs(algorithm), .tolerance = 0});
  if (!check.ok()) throw error::Bug("plan compiler: invalid schedule: " + check.errors.front());

  CompiledPlan plan;
  plan.algorithm = std::string(kpbs::name(algorithm));
  plan.shared_links = !kpbs::obeys_kpbs(algorithm);
  plan.k = normalized.k;
  plan.flow_rate = d;
  plan.step_startup = platform.step_startup;
  plan.lower_bound_seconds = kpbs::lower_bound(normalized).eta;
  for (const kpbs::Step& step : schedule.steps) {
    StepPlan out;
    out.predicted_seconds = predicted_seconds(step, platform.step_startup, d, normalized.k);
    for (const kpbs::Transfer& t : step.transfers) {
      Flow flow{t.src, t.dst, 0, {}};
      pairs[t.src * n2 + t.dst].take(static_cast<std::uint64_t>(t.amount), transfers, flow);
      out.bytes += flow.bytes;
      out.flows.push_back(std::move(flow));
    }
    out.nodes = planned_nodes(out, clusters, plan.shared_links, platform.step_startup, d);
    out.chunk_seconds = chunk_seconds(out, n1, n2);
    plan.predicted_seconds += out.predicted_seconds;
    plan.steps.push_back(std::move(out));
  }
  plan.model_seconds = plan.predicted_seconds;
  return plan;
}

}  // namespace baton::jobs
