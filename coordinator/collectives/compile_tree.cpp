// Reduce and allreduce over a tree of transfers (docs/collectives.md, "Tasks"): the SNF
// paper's schedules (snf, dp, bnb, binomial; snf-fnf and binomial all-reductions) and the
// flat baseline, on t(p) = β + m / r_p + m / c_p (collective_model.h).
//
// A node receives each input into a scratch object of its own, combines its data with them
// in the order the schedule delivers them (its data first), and sends the result to the
// receiver the schedule names (Lemma 1 of the SNF paper decides who receives from whom);
// the root combines into result.file. In an allreduce the root then sends result.file down
// the broadcast tree, and every node relays from its result.file once it has it.
#include "coordinator/collectives/collective_compiler.h"
#include "coordinator/collectives/collective_compilers.h"
#include "coordinator/schedule/reduction/checked.h"
#include "error/error.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace baton::collectives {
namespace {

namespace red = schedule::reduction;

// Every node but the root sends its data to the root, one after the other in the nodes'
// order: what a user writes without a scheduler.
red::Schedule flat_reduction(const red::Problem& problem) {
  red::Schedule schedule;
  double at = 0;
  for (std::size_t p = 0; p < problem.times.size(); ++p) {
    if (p == problem.destination) continue;
    schedule.transfers.push_back({p, problem.destination, at, at + problem.times[p]});
    at += problem.times[p];
  }
  return schedule;
}

// The scheduled transfers and the root, from the job's algorithm.
std::vector<TreeTransfer> schedule_tree(const CollectiveJob& job, const std::vector<double>& times, std::size_t& root,
                                        double& makespan) {
  std::vector<TreeTransfer> out;
  if (job.kind == jobs::JobKind::reduce) {
    const red::Problem problem{.times = times, .destination = root};
    const red::CheckedReduction plan = job.algorithm == Algorithm::flat
                                           ? red::checked_reduction_schedule(problem, flat_reduction(problem), "flat")
                                           : red::checked_reduction(problem, reduction_scheduler(job.algorithm));
    for (const red::Transfer& t : plan.schedule.transfers) out.push_back({t.src, t.dst, t.start, false});
    makespan = plan.makespan;
    return out;
  }
  const red::CheckedAllReduce plan = red::checked_allreduce(times, allreduce_scheduler(job.algorithm));
  root = plan.schedule.root;
  for (const red::PhasedTransfer& t : plan.schedule.transfers) {
    out.push_back({t.transfer.src, t.transfer.dst, t.transfer.start, t.phase == red::Phase::broadcast});
  }
  makespan = plan.makespan;
  return out;
}

// dp solves the SNF paper's two-class case: senders of two speeds. Measured nodes never
// have exactly equal t(p) (each agent's combine speed is its own), so dp sees the senders'
// declared rates as the classes, and a class's time as its slowest member's t(p): a
// schedule for the classes is valid for the nodes, never optimistic. REQUIRES: at most two
// rates among the senders (tree_algorithm_problem).
void to_two_speed_classes(std::vector<double>& times, const std::vector<std::string>& nodes, std::size_t root,
                          const CollectiveModel& model) {
  std::map<double, double> slowest;  // rate -> its class's time
  for (std::size_t p = 0; p < nodes.size(); ++p) {
    if (p == root) continue;
    double& t = slowest[model.nodes.at(nodes[p]).rate];
    t = std::max(t, times[p]);
  }
  for (std::size_t p = 0; p < nodes.size(); ++p) {
    if (p != root) times[p] = slowest.at(model.nodes.at(nodes[p]).rate);
  }
}

std::size_t root_of(const CollectiveJob& job) {
  return static_cast<std::size_t>(std::ranges::find(job.nodes, job.root) - job.nodes.begin());
}

}  // namespace

DataflowSchedule compile_tree(const CollectiveJob& job, const CollectiveModel& model) {
  const std::vector<std::string>& nodes = job.nodes;
  const std::uint64_t m = job.data.bytes();
  std::vector<double> times;
  for (const std::string& n : nodes) times.push_back(model.snf_time(n, m));
  std::size_t root = root_of(job);
  // Said at submit; a node that re-registered with another rate since is caught here.
  if (const std::optional<error::Refusal> problem = tree_algorithm_problem(job, model))
    throw error::InvalidInput(problem->reason);
  if (job.algorithm == Algorithm::dp) to_two_speed_classes(times, nodes, root, model);
  DataflowSchedule out;
  double makespan = 0;
  std::vector<TreeTransfer> transfers = schedule_tree(job, times, root, makespan);
  out.model_seconds = makespan;
  out.plan = tree_tasks(job, std::move(transfers), root);
  return out;
}

DataflowPlan tree_tasks(const CollectiveJob& job, std::vector<TreeTransfer> transfers, std::size_t root) {
  const std::vector<std::string>& nodes = job.nodes;
  const std::uint64_t m = job.data.bytes();
  // The order of every node's sends: the schedule's (the reduction before the broadcast).
  std::ranges::stable_sort(transfers, [](const TreeTransfer& a, const TreeTransfer& b) {
    return std::tie(a.broadcast, a.start, a.src) < std::tie(b.broadcast, b.start, b.src);
  });

  const Region result{job.result_file, 0, m};
  const Region data{job.data.file, job.data.offset, m};
  const auto scratch_from = [&](std::size_t p) { return Region{"scratch:in-" + std::to_string(p), 0, m}; };
  DataflowBuilder builder;
  // Per node: the receives of its inputs (in arrival order) and the task holding its
  // result: the combine of the reduction, or the receive of the broadcast.
  std::vector<std::vector<std::pair<std::size_t, std::uint32_t>>> inputs(nodes.size());
  std::vector<std::optional<std::uint32_t>> holding(nodes.size());
  // Node p's data combined with its inputs, into `output`; its inputs' data alone for a leaf.
  const auto combined = [&](std::size_t p, const Region& output) -> std::pair<Region, std::vector<std::uint32_t>> {
    if (inputs[p].empty()) return {data, {}};
    std::vector<Region> regions{data};
    std::vector<std::string> folds{nodes[p]};
    std::vector<std::uint32_t> after;
    for (const auto& [from, receive] : inputs[p]) {
      regions.push_back(scratch_from(from));
      folds.push_back(nodes[from]);
      after.push_back(receive);
    }
    const std::uint32_t id = builder.combine(nodes[p], std::move(regions), std::move(folds), output, std::move(after));
    return {output, {id}};
  };
  for (const TreeTransfer& t : transfers) {
    if (t.broadcast) continue;
    const auto [source, after] = combined(t.src, Region{"scratch:partial", 0, m});
    const auto ids = builder.transfer(nodes[t.src], source, after, nodes[t.dst], scratch_from(t.src));
    inputs[t.dst].push_back({t.src, ids.second});
  }
  const std::vector<std::uint32_t> root_combine = combined(root, result).second;
  if (root_combine.empty()) throw error::Bug("plan compiler: the root receives nothing");
  holding[root] = root_combine.front();
  for (const TreeTransfer& t : transfers) {
    if (!t.broadcast) continue;
    if (!holding[t.src]) {
      throw error::Bug("plan compiler: " + nodes[t.src] + " relays the result before it has it");
    }
    const auto ids = builder.transfer(nodes[t.src], result, {*holding[t.src]}, nodes[t.dst], result);
    holding[t.dst] = ids.second;
  }
  return builder.take();
}

std::optional<error::Refusal> tree_algorithm_problem(const CollectiveJob& job, const CollectiveModel& model) {
  if (job.kind != jobs::JobKind::reduce) return std::nullopt;
  const std::size_t n = job.nodes.size();
  const auto over = [&](std::size_t cap) {
    return std::string(name(job.algorithm)) + " plans at most " + std::to_string(cap) + " nodes; this job has " +
           std::to_string(n) + ": use snf";
  };
  if (job.algorithm == Algorithm::dp) {
    if (n > red::kMaxDpNodes) return over(red::kMaxDpNodes);
    std::set<double> rates;  // the senders' (dp's classes, to_two_speed_classes)
    for (const std::string& node : job.nodes) {
      if (node != job.root) rates.insert(model.nodes.at(node).rate);
    }
    if (rates.size() > 2) {
      return "dp schedules senders of at most two rates (the SNF paper's two classes); these have " +
             std::to_string(rates.size()) + ": use snf or bnb";
    }
  }
  if (job.algorithm == Algorithm::bnb && n > red::kMaxSearchNodes) return over(red::kMaxSearchNodes);
  return std::nullopt;
}

}  // namespace baton::collectives
