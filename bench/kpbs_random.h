// Random KPBS instances as the kpbs paper's Section 8 draws them: the number of edges,
// then the edges, then the weights, each uniformly at random.
#pragma once

#include "coordinator/schedule/kpbs/problem.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

namespace baton::bench {

inline schedule::kpbs::Matrix paper_random_matrix(std::mt19937_64& rng, std::size_t n1, std::size_t n2,
                                                  std::size_t min_edges, std::size_t max_edges, long max_weight) {
  std::uniform_int_distribution<std::size_t> edge_count(min_edges, max_edges);
  std::uniform_int_distribution<long> weight(1, max_weight);
  std::vector<std::size_t> cells(n1 * n2);
  std::iota(cells.begin(), cells.end(), 0);
  const std::size_t m = edge_count(rng);
  // Partial Fisher–Yates: the first m cells are a uniform sample without repetition.
  for (std::size_t i = 0; i < m; ++i) {
    std::uniform_int_distribution<std::size_t> pick(i, cells.size() - 1);
    std::swap(cells[i], cells[pick(rng)]);
  }
  schedule::kpbs::Matrix matrix(n1, n2);
  for (std::size_t i = 0; i < m; ++i) {
    matrix.at(cells[i] / n2, cells[i] % n2) = static_cast<double>(weight(rng));
  }
  return matrix;
}

}  // namespace baton::bench
