// Multicasts (docs/collectives.md): the multiple-multicast paper's schedulers (Wu, Yeh,
// Liu: FEF, ECF, WR, EAF, RR, RRS and their preemptive forms; wrp by default) on the cost
// model of collective_model.h, and two baselines: flat (the source sends to each
// destination in turn) and binomial (a binomial tree over the source and the destinations,
// MPI's broadcast). All three are node task lists in the paper's model, checked by its
// validator and simulator (schedule/multicast/checked.h); the lists become dataflow tasks:
// a relay's send of a message waits for its receive of it (no pipelining: the paper's
// model, and docs/collectives.md's decision).
#include "coordinator/collectives/collective_compilers.h"
#include "coordinator/schedule/multicast/checked.h"
#include "error/error.h"

#include <algorithm>
#include <bit>
#include <tuple>

namespace baton::collectives {
namespace {

namespace mc = schedule::multicast;

// The source sends to each destination in the order given, message after message; every
// node receives in the order its messages arrive.
std::vector<mc::TaskList> flat_lists(const mc::Problem& problem) {
  std::vector<mc::TaskList> lists(problem.node_count());
  std::vector<double> busy(problem.node_count(), 0);
  std::vector<std::vector<std::pair<double, mc::Task>>> receives(problem.node_count());
  for (std::size_t k = 0; k < problem.multicasts.size(); ++k) {
    const mc::Multicast& m = problem.multicasts[k];
    for (const mc::NodeId d : m.destinations) {
      lists[m.source].push_back({mc::Op::send, d, k, 0, 0});
      busy[m.source] += mc::send_overhead(problem, m.source, k);
      receives[d].push_back(
          {busy[m.source] + mc::link_time(problem, m.source, d, k), {mc::Op::recv, m.source, k, 0, 0}});
    }
  }
  for (std::size_t i = 0; i < lists.size(); ++i) {
    std::ranges::stable_sort(receives[i], [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [arrival, task] : receives[i]) lists[i].push_back(task);
  }
  return lists;
}

// Each message down a binomial tree over its ranks (rank 0 the source, then the
// destinations in the order given): rank r > 0 receives from r − 2^⌊log2 r⌋ in round
// ⌊log2 r⌋ + 1, and every rank that holds the message sends to r + 2^j in round j + 1. A
// node's tasks go by round, then message, a receive before the sends of a round, which
// keeps the lists free of deadlocks (a receive only waits for sends of earlier rounds or of
// lower messages in its round).
std::vector<mc::TaskList> binomial_lists(const mc::Problem& problem) {
  std::vector<std::vector<std::tuple<std::size_t, std::size_t, int, mc::Task>>> keyed(problem.node_count());
  for (std::size_t k = 0; k < problem.multicasts.size(); ++k) {
    const mc::Multicast& m = problem.multicasts[k];
    std::vector<mc::NodeId> ranks{m.source};
    ranks.insert(ranks.end(), m.destinations.begin(), m.destinations.end());
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      std::size_t round = 0;  // the round r receives in; 0 for the source
      if (r > 0) {
        round = static_cast<std::size_t>(std::bit_width(r));
        const std::size_t parent = r - (std::size_t{1} << (round - 1));
        keyed[ranks[r]].push_back({round, k, 0, {mc::Op::recv, ranks[parent], k, 0, 0}});
      }
      for (std::size_t j = round; r + (std::size_t{1} << j) < ranks.size(); ++j) {
        keyed[ranks[r]].push_back({j + 1, k, 1, {mc::Op::send, ranks[r + (std::size_t{1} << j)], k, 0, 0}});
      }
    }
  }
  std::vector<mc::TaskList> lists(problem.node_count());
  for (std::size_t i = 0; i < keyed.size(); ++i) {
    std::ranges::stable_sort(keyed[i], [](const auto& a, const auto& b) {
      return std::tie(std::get<0>(a), std::get<1>(a), std::get<2>(a)) <
             std::tie(std::get<0>(b), std::get<1>(b), std::get<2>(b));
    });
    for (const auto& entry : keyed[i]) lists[i].push_back(std::get<3>(entry));
  }
  return lists;
}

// The baselines here, the paper's schedulers in schedule/multicast.
mc::CheckedMulticast schedule_multicasts(const mc::Problem& problem, Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::flat: return mc::checked_task_lists(problem, flat_lists(problem), "flat");
    case Algorithm::binomial: return mc::checked_task_lists(problem, binomial_lists(problem), "binomial");
    default: return mc::checked_multicast(problem, {.algorithm = multicast_scheduler(algorithm), .seed = 1});
  }
}

}  // namespace

DataflowSchedule compile_multicast(const CollectiveJob& job, const CollectiveModel& model) {
  const std::vector<std::string>& nodes = job.nodes;
  const auto index = [&](const std::string& node) {
    return static_cast<mc::NodeId>(std::ranges::find(nodes, node) - nodes.begin());
  };
  mc::Problem problem{
      .nodes = model.multicast_costs(nodes), .link_per_byte = model.multicast_links(nodes), .multicasts = {}};
  for (const Message& m : job.messages) {
    mc::Multicast multicast{.source = index(m.source), .bytes = *m.length, .destinations = {}};
    for (const std::string& d : m.destinations) multicast.destinations.push_back(index(d));
    problem.multicasts.push_back(std::move(multicast));
  }
  if (const std::optional<error::Refusal> malformed = mc::problem_error(problem)) {
    throw error::Bug("plan compiler: the multicast problem is malformed: " + malformed->reason);
  }
  const mc::CheckedMulticast plan = schedule_multicasts(problem, job.algorithm);

  // Every send of the schedule in the order of its start (each node's list order kept).
  std::vector<std::tuple<double, std::size_t, std::size_t>> sends;  // start, node, position
  for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
    for (std::size_t p = 0; p < plan.tasks[i].size(); ++p) {
      if (plan.tasks[i][p].op == mc::Op::send) sends.emplace_back(plan.tasks[i][p].start, i, p);
    }
  }
  std::ranges::sort(sends);
  DataflowBuilder builder;
  std::map<std::pair<std::size_t, std::size_t>, std::uint32_t> received;  // (node, message) → its receive
  for (const auto& [start, i, p] : sends) {
    const mc::Task& task = plan.tasks[i][p];
    const Message& m = job.messages[task.multicast];
    const Region whole{m.dst_file, 0, *m.length};
    std::vector<std::uint32_t> after;
    Region source{m.file, m.offset, *m.length};
    if (i != problem.multicasts[task.multicast].source) {
      const auto got = received.find({i, task.multicast});
      if (got == received.end()) {
        throw error::Bug("plan compiler: " + nodes[i] + " relays message " + std::to_string(task.multicast) +
                         " before it receives it");
      }
      after.push_back(got->second);
      source = whole;
    }
    received[{task.peer, task.multicast}] = builder.transfer(nodes[i], source, after, nodes[task.peer], whole).second;
  }
  return {builder.take(), plan.completion_time, plan.lower_bound};
}

}  // namespace baton::collectives
