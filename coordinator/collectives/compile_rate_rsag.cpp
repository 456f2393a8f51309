// Rate-proportional reduce-scatter + all-gather (docs/collectives.md, "Pipelined trees and
// shards"): Baton's all-reduce for unequal links. Node i owns a shard of s_i bytes of the
// array: every other node sends it its data's shard i, node i folds them (its own first,
// then in the nodes' order) into result.file, and sends the reduced shard to every other
// node. Node i's link then carries (M − s_i) + (N − 1) s_i = M + (N − 2) s_i bytes each way.
//
// Shard sizes: all nodes finish together at T when s_i = (T r_i − M) / (N − 2); a node with
// T r_i < M owns nothing (it still sends its data and receives the result: M / r_i), and
// Σ s_i = M gives T = (N − 2 + |A|) M / Σ_{i∈A} r_i over the owners A, found by dropping the
// slowest until every owner's share is positive. With every node an owner that is
// 2 (N − 1) M / Σ r, what the links allow. (A plain ring gives every node 2 (N − 1) M / N
// and waits for the slowest; shards in proportion to r_i overload the slow nodes with
// (N − 2) s_i.) A fast owner's all-gather sends to a slow node run at the slow node's
// rate: one at a time they would leave most of its link idle, so the plan lets a node run
// several at once (dataflow_timing.h) when the simulation predicts that faster.
#include "coordinator/collectives/collective_compilers.h"
#include "coordinator/collectives/pipeline.h"
#include "error/error.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace baton::collectives {
namespace {

// The shares s_i / M above; nodes outside the owners get 0.
std::vector<double> owner_shares(const std::vector<double>& rates) {
  const std::size_t n = rates.size();
  std::vector<double> share(n, 0);
  if (n <= 2) {  // each link carries M whatever the split: in proportion to the rates
    const double sum = std::accumulate(rates.begin(), rates.end(), 0.0);
    for (std::size_t i = 0; i < n; ++i) share[i] = rates[i] / sum;
    return share;
  }
  std::vector<std::size_t> owners(n);
  std::iota(owners.begin(), owners.end(), std::size_t{0});
  std::ranges::stable_sort(owners, [&](std::size_t a, std::size_t b) { return rates[a] > rates[b]; });
  for (;;) {
    double sum = 0;
    for (const std::size_t i : owners) sum += rates[i];
    const double t = static_cast<double>(n - 2 + owners.size()) / sum;  // T / M
    if (t * rates[owners.back()] > 1 || owners.size() == 1) {
      for (const std::size_t i : owners) share[i] = (t * rates[i] - 1) / static_cast<double>(n - 2);
      if (owners.size() == 1) share[owners.front()] = 1;
      return share;
    }
    owners.pop_back();  // the slowest would own a negative share: it owns nothing
  }
}

}  // namespace

DataflowSchedule compile_rate_rsag(const CollectiveJob& job, const CollectiveModel& model) {
  const std::vector<std::string>& nodes = job.nodes;
  const std::size_t n = nodes.size();
  std::vector<double> rates;
  for (const std::string& node : nodes) rates.push_back(model.nodes.at(node).rate);
  const std::vector<double> share = owner_shares(rates);

  // Shards in whole elements, in the nodes' order; what rounding leaves goes to the fastest.
  const std::uint64_t size = element_size(job.data.dtype);
  std::vector<std::uint64_t> count(n);
  for (std::size_t i = 0; i < n; ++i)
    count[i] = static_cast<std::uint64_t>(std::floor(share[i] * static_cast<double>(job.data.count)));
  const std::uint64_t given = std::accumulate(count.begin(), count.end(), std::uint64_t{0});
  if (given > job.data.count) throw error::Bug("plan compiler: rate-rsag shares exceed the array");
  count[static_cast<std::size_t>(std::ranges::max_element(rates) - rates.begin())] += job.data.count - given;
  std::vector<std::uint64_t> begin(n, 0);
  for (std::size_t i = 1; i < n; ++i) begin[i] = begin[i - 1] + count[i - 1] * size;
  const auto data = [&](std::size_t k) { return Region{job.data.file, job.data.offset + begin[k], count[k] * size}; };
  const auto result = [&](std::size_t k) { return Region{job.result_file, begin[k], count[k] * size}; };

  DataflowBuilder builder;
  // Reduce-scatter: node j sends its shard k to owner k, owners in turn from j + 1 on, so
  // that the nodes start on different owners' links.
  std::vector<std::vector<std::pair<std::size_t, std::uint32_t>>> received(n);  // per owner: (from, receive)
  for (std::size_t step = 1; step < n; ++step) {
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t k = (j + step) % n;
      if (count[k] == 0) continue;
      const Region into{"scratch:rsag-from-" + std::to_string(j), 0, count[k] * size};
      received[k].push_back({j, builder.transfer(nodes[j], data(k), {}, nodes[k], into).second});
    }
  }
  std::vector<std::uint32_t> reduced(n, 0);
  for (std::size_t k = 0; k < n; ++k) {
    if (count[k] == 0) continue;
    std::ranges::sort(received[k]);  // fold in the nodes' order, the owner's own data first
    std::vector<Region> inputs{data(k)};
    std::vector<std::string> folds{nodes[k]};
    std::vector<std::uint32_t> after;
    for (const auto& [from, receive] : received[k]) {
      inputs.push_back(Region{"scratch:rsag-from-" + std::to_string(from), 0, count[k] * size});
      folds.push_back(nodes[from]);
      after.push_back(receive);
    }
    reduced[k] = builder.combine(nodes[k], std::move(inputs), std::move(folds), result(k), std::move(after));
  }
  // All-gather: owner k sends its reduced shard to every other node, the slowest first and
  // nodes of one rate from k + 1 on. A slow node's link must carry the whole result after its
  // own pieces, and its piece of each segment reaches an owner last: sent first, that
  // segment goes on to it at once instead of behind the fast nodes' copies, which have slack.
  for (std::size_t k = 0; k < n; ++k) {
    if (count[k] == 0) continue;
    std::vector<std::size_t> to;
    for (std::size_t step = 1; step < n; ++step) to.push_back((k + step) % n);
    std::ranges::stable_sort(to, [&](std::size_t a, std::size_t b) { return rates[a] < rates[b]; });
    for (const std::size_t j : to) builder.transfer(nodes[k], result(k), {reduced[k]}, nodes[j], result(k));
  }
  // The agents' limit of tasks per step (agent/dataflow_step_check.h: 8192), halved. Pieces down
  // to 32 KiB, half the tree's: a node that owns nothing idles on its receiving side while
  // its first pieces go round, and at 64 KiB that fill cost a 16 MiB all-reduce on fig8
  // 3.7 % of T* in the prediction (0.9 % at 32 KiB). An owner folds each piece once, and the
  // plans held at 32 KiB on the links (measured 1.00-1.06x their prediction at 1 MiB, where
  // the pipelined tree's all-reduce, folding every piece at every relay, measured 1.23-1.37x
  // its own; docs/collectives.md).
  Pipeline pipeline =
      fastest_pipeline(builder.take(), size, model, 64, 4096, std::min(most_sends_at_once, n - 1), 32 * 1024);
  return {std::move(pipeline.plan), std::nullopt, std::nullopt, pipeline.sends_at_once};
}

}  // namespace baton::collectives
