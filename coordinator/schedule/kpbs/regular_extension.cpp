#include "coordinator/schedule/kpbs/regular_extension.h"

#include "error/error.h"

#include <algorithm>
#include <cmath>

namespace baton::schedule::kpbs {
namespace {

// Fig. 6 for one side: every vertex of `side` that misses weight is joined to new vertices
// of the other side, each of which is filled up to the regular weight before the next one
// is opened. `from_left` says whether `side` holds left vertices.
void fill_side(BipartiteGraph& g, const std::vector<int>& side, const std::vector<double>& weight, double regular,
               bool from_left) {
  int current = -1;            // cn of Fig. 6
  double current_missing = 0;  // mw(cn)
  for (std::size_t i = 0; i < side.size(); ++i) {
    double missing = regular - weight[i];  // mw(s), step 3.1
    while (missing > 0) {
      if (current < 0 || current_missing == 0) {  // steps 3.1.1–3.1.2 and 3.1.4.3–3.1.4.4
        current = from_left ? g.add_right() : g.add_left();
        current_missing = regular;
      }
      const double w = std::min(missing, current_missing);  // steps 3.1.3, 3.1.4.1, 3.1.4.2
      if (from_left) {
        g.add_edge(side[i], current, w, EdgeKind::regular);
      } else {
        g.add_edge(current, side[i], w, EdgeKind::regular);
      }
      missing -= w;
      current_missing -= w;
    }
  }
  if (current_missing != 0) throw error::Bug("GGP: weight-regular extension left a gap");
}

}  // namespace

ExtendedGraph build_extended_graph(const Problem& problem) {
  const Matrix& times = problem.times;
  ExtendedGraph out;

  // Senders and receivers that have data, renumbered densely.
  std::vector<int> row_index(times.senders(), -1), col_index(times.receivers(), -1);
  int rows = 0, cols = 0;
  for (std::size_t i = 0; i < times.senders(); ++i) {
    for (std::size_t j = 0; j < times.receivers(); ++j) {
      if (times.at(i, j) <= 0) continue;
      if (row_index[i] < 0) row_index[i] = rows++;
      if (col_index[j] < 0) col_index[j] = cols++;
    }
  }
  if (rows == 0) return out;
  const int k = std::min({problem.k, rows, cols});
  out.k = k;

  // Step 1: H, weights rounded up to whole start-up times.
  BipartiteGraph& g = out.j;
  g = BipartiteGraph(rows, cols);
  double total = 0, heaviest = 0;  // P(H), W(H)
  for (std::size_t i = 0; i < times.senders(); ++i) {
    for (std::size_t j = 0; j < times.receivers(); ++j) {
      if (times.at(i, j) <= 0) continue;
      const double units = std::ceil(times.at(i, j) / problem.beta);
      if (units > kMaxUnitsPerEntry) {
        throw error::InvalidInput("GGP: an entry exceeds 2^32 start-up times");
      }
      g.add_edge(row_index[i], col_index[j], units, EdgeKind::real, static_cast<int>(out.transfers.size()));
      out.transfers.emplace_back(i, j);
      out.units.push_back(units);
      total += units;
    }
  }
  for (double w : g.left_weights()) heaviest = std::max(heaviest, w);
  for (double w : g.right_weights()) heaviest = std::max(heaviest, w);

  // Step 2: I = H plus δ disjoint padding edges so that P(I)/k = φ is a whole number no
  // smaller than W(I).
  const double phi = std::max(heaviest, std::ceil(total / k));
  const double gap = phi * k - total;
  const auto delta = static_cast<int>(std::ceil(gap / heaviest));
  for (int i = 1; i <= delta; ++i) {
    const double rest = std::fmod(gap, heaviest);
    const double w = (i < delta || rest == 0) ? heaviest : rest;
    g.add_edge(g.add_left(), g.add_right(), w, EdgeKind::padding);
  }
  out.regular_weight = phi;

  // Step 3 (Fig. 6): complete I into the φ-weight-regular J.
  const int left_of_i = g.left_count(), right_of_i = g.right_count();
  std::vector<int> lefts(static_cast<std::size_t>(left_of_i)), rights(static_cast<std::size_t>(right_of_i));
  for (int u = 0; u < left_of_i; ++u) lefts[static_cast<std::size_t>(u)] = u;
  for (int v = 0; v < right_of_i; ++v) rights[static_cast<std::size_t>(v)] = v;
  const std::vector<double> left_weight = g.left_weights();
  const std::vector<double> right_weight = g.right_weights();
  fill_side(g, lefts, left_weight, phi, true);
  fill_side(g, rights, right_weight, phi, false);
  return out;
}

}  // namespace baton::schedule::kpbs
