// The ring all-reduction of NCCL and Gloo (Patarasuk and Yuan, "Bandwidth optimal
// all-reduce algorithms for clusters of workstations"): the baseline for large arrays that
// no paper of Baton's models. The array is cut into n segments, one per node; the nodes in
// the job's order form a ring, each sending to the next.
//
//   reduce-scatter, steps t = 0 … n−2: node i sends segment (i − t) mod n to node i + 1,
//     which folds it into its own data of that segment; after the last step node i holds
//     segment (i + 1) mod n reduced over every node, written into result.file;
//   all-gather, steps t = 0 … n−2: node i sends segment (i + 1 − t) mod n of result.file to
//     node i + 1, which writes it into its result.file.
//
// There are no global steps: each send waits only for the combine or receive it forwards,
// and for the node's previous send.
#include "coordinator/collectives/collective_compilers.h"

namespace baton::collectives {

DataflowSchedule compile_ring(const CollectiveJob& job) {
  const std::vector<std::string>& nodes = job.nodes;
  const std::size_t n = nodes.size();
  const std::uint64_t size = element_size(job.data.dtype);
  const std::uint64_t per = job.data.count / n, extra = job.data.count % n;
  const auto begin = [&](std::size_t k) { return (k * per + std::min<std::uint64_t>(k, extra)) * size; };
  const auto length = [&](std::size_t k) { return (per + (k < extra ? 1 : 0)) * size; };
  const auto segment = [&](std::size_t i, std::size_t back) { return (i + n - back % n) % n; };  // (i − back) mod n
  const auto data = [&](std::size_t k) { return Region{job.data.file, job.data.offset + begin(k), length(k)}; };
  const auto result = [&](std::size_t k) { return Region{job.result_file, begin(k), length(k)}; };

  DataflowBuilder builder;
  std::vector<std::uint32_t> last(n);  // per node: the task holding what it sends next
  for (std::size_t t = 0; t + 1 < n; ++t) {
    std::vector<std::uint32_t> received(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = segment(i, t), to = (i + 1) % n;
      const Region source = t == 0 ? data(k) : Region{"scratch:ring-acc-" + std::to_string(t - 1), 0, length(k)};
      const Region into{"scratch:ring-in-" + std::to_string(t), 0, length(k)};
      received[to] =
          builder
              .transfer(nodes[i], source, t == 0 ? std::vector<std::uint32_t>{} : std::vector{last[i]}, nodes[to], into)
              .second;
    }
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t k = segment(j, t + 1), from = (j + n - 1) % n;
      const Region output = t + 2 == n ? result(k) : Region{"scratch:ring-acc-" + std::to_string(t), 0, length(k)};
      last[j] = builder.combine(nodes[j], {data(k), Region{"scratch:ring-in-" + std::to_string(t), 0, length(k)}},
                                {nodes[j], nodes[from]}, output, {received[j]});
    }
  }
  for (std::size_t t = 0; t + 1 < n; ++t) {
    std::vector<std::uint32_t> received(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = (i + 1 + n - t % n) % n, to = (i + 1) % n;
      received[to] = builder.transfer(nodes[i], result(k), {last[i]}, nodes[to], result(k)).second;
    }
    last = received;
  }
  return {builder.take(), std::nullopt, std::nullopt};
}

}  // namespace baton::collectives
