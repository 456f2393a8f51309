#include "coordinator/schedule/kpbs/lower_bound.h"

#include <algorithm>
#include <vector>

namespace baton::schedule::kpbs {

LowerBound lower_bound(const Problem& problem) {
  const Matrix& g = problem.times;
  std::vector<double> row_weight(g.senders(), 0), col_weight(g.receivers(), 0);
  std::vector<long> row_degree(g.senders(), 0), col_degree(g.receivers(), 0);
  double total = 0;
  long edges = 0;
  for (std::size_t i = 0; i < g.senders(); ++i) {
    for (std::size_t j = 0; j < g.receivers(); ++j) {
      const double w = g.at(i, j);
      if (w <= 0) continue;
      row_weight[i] += w;
      col_weight[j] += w;
      ++row_degree[i];
      ++col_degree[j];
      total += w;
      ++edges;
    }
  }
  double heaviest = 0;  // W(G)
  for (double w : row_weight) heaviest = std::max(heaviest, w);
  for (double w : col_weight) heaviest = std::max(heaviest, w);
  long degree = 0;  // Δ(G)
  for (long d : row_degree) degree = std::max(degree, d);
  for (long d : col_degree) degree = std::max(degree, d);

  LowerBound bound;
  bound.eta_d = std::max(heaviest, total / problem.k);
  bound.eta_s = std::max(degree, (edges + problem.k - 1) / problem.k);
  bound.eta = bound.eta_d + problem.beta * static_cast<double>(bound.eta_s);
  return bound;
}

}  // namespace baton::schedule::kpbs
