// GGP's graph construction (kpbs paper, Fig. 5 steps 1–3 and Fig. 6): from the problem to
// the P(I)/k-weight-regular graph J whose perfect matchings each hold exactly k edges of I
// (Lemma 1), so peeling J yields steps of at most k real transfers.
#pragma once

#include "coordinator/schedule/kpbs/bipartite_graph.h"
#include "coordinator/schedule/kpbs/problem.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace baton::schedule::kpbs {

// The largest weight, in units of β, that one matrix entry may have. It keeps every sum
// GGP forms (P(H) over up to 2^20 entries) exact in a double.
inline constexpr double kMaxUnitsPerEntry = 4294967296.0;  // 2^32

struct ExtendedGraph {
  BipartiteGraph j{0, 0};
  double regular_weight = 0;  // P(I)/k: every vertex of J has this weight (Proposition 2)
  int k = 0;                  // the k used: min(k, senders with data, receivers with data)
  // Real edge `origin` carries the transfer transfers[origin] = (sender, receiver).
  std::vector<std::pair<std::size_t, std::size_t>> transfers;
  std::vector<double> units;  // w_H of each real edge: ⌈time/β⌉ (Fig. 5 step 1)
};

// Decisions, where Fig. 5 and 6 leave room:
// - Rows and columns without data are left out, and k is capped at the number of senders
//   and of receivers that remain: no step can hold more transfers than that, and η is
//   unchanged (P/k <= W and ⌈m/k⌉ <= Δ whenever k >= n).
// - Fig. 6 as printed adds an edge of weight mw(s) = 0 (and a new node) for a vertex that
//   already has the full weight; such vertices get no edge. mw(s) is read as the weight s
//   still misses at that moment, so the second edge of step 3.1.4.5 carries the rest.
// Requires check(problem) to pass and every time/β <= kMaxUnitsPerEntry.
ExtendedGraph build_extended_graph(const Problem& problem);

}  // namespace baton::schedule::kpbs
