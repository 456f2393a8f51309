#include "coordinator/schedule/kpbs/heuristic.h"

#include "coordinator/schedule/kpbs/perfect_matching.h"

#include <algorithm>

namespace baton::schedule::kpbs {

Schedule run_heuristic(const Problem& problem, const KeepOrder& keep_first) {
  check(problem);
  const Matrix& times = problem.times;
  BipartiteGraph g(static_cast<int>(times.senders()), static_cast<int>(times.receivers()));
  int alive = 0;
  for (std::size_t i = 0; i < times.senders(); ++i) {
    for (std::size_t j = 0; j < times.receivers(); ++j) {
      if (times.at(i, j) > 0) {
        g.add_edge(static_cast<int>(i), static_cast<int>(j), times.at(i, j));
        ++alive;
      }
    }
  }
  Schedule schedule;
  Matching m(g);
  while (alive > 0) {
    m.maximize(0);  // line 1 (kept from the last step)
    std::vector<int> kept = m.edges();
    keep_first(g, kept);  // line 2
    kept.resize(std::min(kept.size(), static_cast<std::size_t>(problem.k)));
    double lightest = g.edge(kept.front()).weight;  // line 3
    for (int e : kept) lightest = std::min(lightest, g.edge(e).weight);
    Step step;
    for (int e : kept) {  // line 4
      Edge& edge = g.edge(e);
      const double amount = std::min(lightest, edge.weight);
      edge.weight -= amount;  // exact 0 for the lightest: x - x == 0
      if (edge.weight == 0) --alive;
      step.transfers.push_back(
          Transfer{static_cast<std::size_t>(edge.left), static_cast<std::size_t>(edge.right), amount});
    }
    schedule.steps.push_back(std::move(step));
    m.drop_dead_edges(g);
  }
  set_durations(schedule);
  return schedule;
}

}  // namespace baton::schedule::kpbs
