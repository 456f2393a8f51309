#include "coordinator/schedule/kpbs/peeling.h"

#include "coordinator/schedule/kpbs/perfect_matching.h"
#include "error/error.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace baton::schedule::kpbs {
namespace {

[[noreturn]] void no_perfect_matching() {
  // J is weight-regular (Proposition 2) and stays so after every peel, so a perfect
  // matching always exists; reaching this means the construction is broken.
  throw error::Bug("GGP: the peeled graph has no perfect matching");
}

// GGP, incremental: reconnect every vertex that lost its edge.
void repair_any(Matching& m, const std::vector<int>& freed) {
  for (int u : freed) {
    if (!m.augment(u)) no_perfect_matching();
  }
}

// Lifts the bottleneck b of a perfect matching until it is the largest possible: unmatch
// every edge of weight b and reconnect those vertices through edges heavier than b. When
// that fails, no perfect matching has all its edges heavier than b: an augmenting path
// from a free vertex exists in any subgraph holding a perfect matching and the rest of ours.
void lift(Matching& m, const BipartiteGraph& j) {
  std::vector<int> saved, lifted;
  for (;;) {
    const double bottleneck = m.lightest();
    saved = m.edges();
    lifted.clear();
    for (int e : saved) {
      if (j.edge(e).weight == bottleneck) lifted.push_back(j.edge(e).left);
    }
    for (int u : lifted) m.unmatch(u);
    for (int u : lifted) {
      if (m.augment_widest(u, bottleneck) < 0) {
        m.assign(saved);
        return;
      }
    }
  }
}

// OGGP, incremental: the perfect matching with the heaviest lightest edge (Fig. 9), found
// by descending from a threshold t that is probably just above the answer (the previous
// step's: it changes little from step to step). Edges of the previous matching lighter
// than t are dropped; every free vertex is reconnected through edges >= t by a BFS that
// stops at the first free receiver. When no such path exists, G restricted to edges >= t
// has no perfect matching (Berge, as in lift()), so the answer is below t, and at most
// the value of the widest augmenting path from that vertex: t drops to it. Once t has
// dropped, the final matching is optimal; if it never dropped, the hint was too low and
// lift() climbs the rest of the way.
void repair_max_min(Matching& m, const BipartiteGraph& j, double hint) {
  double t = hint;
  for (int u = 0; u < j.left_count(); ++u) {
    const int e = m.edge_of_left(u);
    if (e >= 0 && j.edge(e).weight < t) m.unmatch(u);
  }
  bool dropped = false;
  for (int u = 0; u < j.left_count(); ++u) {
    if (m.edge_of_left(u) >= 0 || m.augment(u, t)) continue;
    t = m.augment_widest(u, 0);
    if (t < 0) no_perfect_matching();
    dropped = true;
  }
  if (!dropped) lift(m, j);
}

// From scratch: Hopcroft–Karp on J, and for OGGP a binary search for the heaviest
// threshold whose edges still hold a perfect matching (Fig. 9 adds edges from the
// heaviest down until the maximum matching is perfect; the threshold found is the same).
void from_scratch(Matching& m, const BipartiteGraph& j, MatchingChoice choice) {
  double threshold = 0;
  if (choice == MatchingChoice::max_min_weight) {
    std::vector<double> weights;
    for (int e = 0; e < j.edge_count(); ++e) {
      if (j.alive(e)) weights.push_back(j.edge(e).weight);
    }
    std::sort(weights.begin(), weights.end());
    weights.erase(std::unique(weights.begin(), weights.end()), weights.end());
    std::size_t lo = 0, hi = weights.size() - 1;  // weights[lo] always works
    while (lo < hi) {
      const std::size_t mid = (lo + hi + 1) / 2;
      m.clear();
      m.maximize(weights[mid]);
      if (m.perfect()) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    threshold = weights[lo];
  }
  m.clear();
  m.maximize(threshold);
  if (!m.perfect()) no_perfect_matching();
}

}  // namespace

void find_perfect_matching(Matching& m, const BipartiteGraph& graph, const std::vector<int>& freed,
                           MatchingChoice choice, const PeelOptions& options, double hint) {
  if (!options.incremental) {
    from_scratch(m, graph, choice);
  } else if (choice == MatchingChoice::any) {
    repair_any(m, freed);
  } else {
    repair_max_min(m, graph, hint);
  }
}

std::vector<PeeledMatching> peel(ExtendedGraph& graph, MatchingChoice choice, const PeelOptions& options) {
  BipartiteGraph& j = graph.j;
  std::vector<PeeledMatching> result;
  int alive = 0;
  for (int e = 0; e < j.edge_count(); ++e) alive += j.alive(e) ? 1 : 0;
  if (alive == 0) return result;

  Matching m(j);
  double hint = std::numeric_limits<double>::infinity();
  std::vector<int> freed;
  for (int u = 0; u < j.left_count(); ++u) freed.push_back(u);
  while (alive > 0) {
    if (options.keep_going && !options.keep_going(result.size())) throw PeelInterrupted(result.size());
    // Step 5.1: a perfect matching of what is left.
    find_perfect_matching(m, j, freed, choice, options, hint);
    // Steps 5.2–5.5: cut every edge of M to its lightest one and take that off J.
    const std::vector<int> edges = m.edges();
    PeeledMatching step;
    step.units = m.lightest();
    hint = step.units;
    for (int e : edges) {
      Edge& edge = j.edge(e);
      if (edge.kind == EdgeKind::real) step.transfers.push_back(edge.origin);  // step 6
      edge.weight -= step.units;
      if (edge.weight == 0) --alive;
    }
    result.push_back(std::move(step));
    freed = m.drop_dead_edges(j);
  }
  return result;
}

Schedule to_schedule(const std::vector<PeeledMatching>& matchings, const ExtendedGraph& graph, const Problem& problem) {
  std::vector<double> left(graph.transfers.size());  // time still to send
  std::vector<double> units_left = graph.units;      // w_H still to peel
  for (std::size_t t = 0; t < graph.transfers.size(); ++t) {
    left[t] = problem.times.at(graph.transfers[t].first, graph.transfers[t].second);
  }
  Schedule schedule;
  for (const PeeledMatching& m : matchings) {
    Step step;
    for (int origin : m.transfers) {
      const auto t = static_cast<std::size_t>(origin);
      units_left[t] -= m.units;
      const double amount = units_left[t] == 0 ? left[t] : std::min(m.units * problem.beta, left[t]);
      left[t] -= amount;
      if (amount > 0) {
        step.transfers.push_back(Transfer{graph.transfers[t].first, graph.transfers[t].second, amount});
      }
    }
    if (!step.transfers.empty()) schedule.steps.push_back(std::move(step));
  }
  set_durations(schedule);
  return schedule;
}

}  // namespace baton::schedule::kpbs
