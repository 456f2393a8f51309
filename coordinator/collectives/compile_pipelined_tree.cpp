// Pipelined trees (docs/collectives.md, "Pipelined trees"): Baton's own algorithm beside the
// papers', for messages large enough that bandwidth, not start-up, sets the time. The tree
// comes from the nodes' rates and β (rate_tree.h): the fast nodes relay, the slow ones are
// leaves, and no link is planned full to the last byte.
// Every message is then cut into the number of segments the plan's own event simulation
// predicts fastest (pipeline.h), so a relay forwards segment s while segment s + 1 arrives.
//
//   reduce      to the job's root; each node folds its data with its children's (in the
//               order of their rates) and sends the result to its parent, segment by segment;
//   allreduce   the same reduction to the fastest node, which then sends the result down the
//               same tree (the tree's fan-out allows for both directions, TreeLoad::both_ways);
//   multicast   each message down its own tree over its source and destinations.
#include "coordinator/collectives/collective_compilers.h"
#include "coordinator/collectives/pipeline.h"
#include "coordinator/collectives/rate_tree.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace baton::collectives {
namespace {

// The agents refuse a step of more than 8192 tasks (agent/dataflow_step_check.h); a pipeline
// stays within half of that on every node.
constexpr std::size_t max_tasks_per_node = 4096;
constexpr std::size_t max_segments = 256;

std::vector<std::size_t> depths(const std::vector<std::size_t>& parent, std::size_t root) {
  std::vector<std::size_t> depth(parent.size(), 0);
  for (std::size_t p = 0; p < parent.size(); ++p) {
    for (std::size_t at = p; at != root; at = parent[at]) ++depth[p];
  }
  return depth;
}

// The reduction (children before parents, so a node's inputs are listed before its send)
// and, for an all-reduce, the broadcast down the same tree.
DataflowPlan reduction_tasks(const CollectiveJob& job, const CollectiveModel& model, double startup_per_byte) {
  const std::vector<std::string>& nodes = job.nodes;
  std::vector<double> rates;
  for (const std::string& n : nodes) rates.push_back(model.nodes.at(n).rate);
  const bool all = job.kind == jobs::JobKind::allreduce;
  const std::size_t root = all ? static_cast<std::size_t>(std::ranges::max_element(rates) - rates.begin())
                               : static_cast<std::size_t>(std::ranges::find(nodes, job.root) - nodes.begin());
  const std::vector<std::size_t> parent =
      rate_tree(rates, root, all ? TreeLoad::both_ways : TreeLoad::one_way, startup_per_byte);
  const std::vector<std::size_t> depth = depths(parent, root);
  std::vector<TreeTransfer> transfers;
  for (std::size_t p = 0; p < nodes.size(); ++p) {
    if (p == root) continue;
    // Deeper first up the tree, shallower first down it; among equals, the faster first.
    const double order = static_cast<double>(depth[p]) + 1.0 / (1.0 + rates[p]);
    transfers.push_back({p, parent[p], -order, false});
    if (all) transfers.push_back({parent[p], p, order, true});
  }
  return tree_tasks(job, std::move(transfers), root);
}

// Each message down a tree over its source and destinations, breadth first.
DataflowPlan multicast_tasks(const CollectiveJob& job, const CollectiveModel& model, double startup_per_byte) {
  DataflowBuilder builder;
  for (const Message& m : job.messages) {
    std::vector<std::string> ranks{m.source};
    ranks.insert(ranks.end(), m.destinations.begin(), m.destinations.end());
    std::vector<double> rates;
    for (const std::string& n : ranks) rates.push_back(model.nodes.at(n).rate);
    const std::vector<std::size_t> parent = rate_tree(rates, 0, TreeLoad::one_way, startup_per_byte);
    const std::vector<std::size_t> depth = depths(parent, 0);
    std::vector<std::size_t> order(ranks.size());
    for (std::size_t r = 0; r < order.size(); ++r) order[r] = r;
    std::ranges::stable_sort(order, [&](std::size_t a, std::size_t b) { return depth[a] < depth[b]; });
    const Region whole{m.dst_file, 0, *m.length};
    std::map<std::size_t, std::uint32_t> received;  // rank -> its receive
    for (const std::size_t r : order) {
      if (r == 0) continue;
      const std::size_t from = parent[r];
      const Region source = from == 0 ? Region{m.file, m.offset, *m.length} : whole;
      const std::vector<std::uint32_t> after =
          from == 0 ? std::vector<std::uint32_t>{} : std::vector<std::uint32_t>{received.at(from)};
      received[r] = builder.transfer(ranks[from], source, after, ranks[r], whole).second;
    }
  }
  return builder.take();
}

}  // namespace

DataflowSchedule compile_pipelined_tree(const CollectiveJob& job, const CollectiveModel& model) {
  const bool copies = job.kind == jobs::JobKind::multicast;
  const std::uint64_t element = copies ? 1 : element_size(job.data.dtype);
  // The tree charges each child β per smallest segment (rate_tree.h). Decision, from runs E
  // to G (docs/collectives-bench.md): the bandwidth-only tree fills a fast relay's link
  // exactly (four 100 Mbit/s children into 100 Mbit/s), which the model predicts 0.3 %
  // faster and real links do not carry: fig8's 64 MiB reduce measured 1.21x the bound on
  // it and 1.02x on this tree; a 1 MiB multicast's relay fell behind in the plan itself.
  const double startup_per_byte = model.beta / static_cast<double>(min_segment_bytes);
  const DataflowPlan whole =
      copies ? multicast_tasks(job, model, startup_per_byte) : reduction_tasks(job, model, startup_per_byte);
  Pipeline pipeline = fastest_pipeline(whole, element, model, max_segments, max_tasks_per_node,
                                       std::min(most_sends_at_once, job.nodes.size() - 1), min_segment_bytes);
  return {std::move(pipeline.plan), std::nullopt, std::nullopt, pipeline.sends_at_once};
}

}  // namespace baton::collectives
