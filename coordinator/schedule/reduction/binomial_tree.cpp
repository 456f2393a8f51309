#include "coordinator/schedule/reduction/binomial_tree.h"

#include <algorithm>
#include <vector>

namespace baton::schedule::reduction {

Schedule binomial_reduction(std::span<const double> times, std::span<const std::size_t> ranks) {
  const std::size_t n = ranks.size();
  Schedule schedule;
  schedule.transfers.reserve(n > 0 ? n - 1 : 0);
  // holds_subtree[i]: when rank i has received from all its children. Children have larger
  // ranks, so going down from n - 1 they are known before their parent.
  std::vector<double> holds_subtree(n, 0.0);
  for (std::size_t i = n; i-- > 0;) {
    double ready = 0;
    for (std::size_t bit = 1; bit < n && (i & bit) == 0 && i + bit < n; bit <<= 1) {
      const std::size_t child = i + bit;
      const double start = std::max(ready, holds_subtree[child]);
      const double end = start + times[ranks[child]];
      schedule.transfers.push_back({ranks[child], ranks[i], start, end});
      ready = end;
    }
    holds_subtree[i] = ready;
  }
  sort_by_start(schedule);
  return schedule;
}

Schedule binomial_tree(const Problem& problem) {
  check(problem);
  std::vector<std::size_t> ranks{problem.destination};
  for (std::size_t p : senders(problem)) ranks.push_back(p);
  return binomial_reduction(problem.times, ranks);
}

}  // namespace baton::schedule::reduction
