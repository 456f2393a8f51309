#include "coordinator/schedule/reduction/dp_crossover.h"

#include <algorithm>

namespace baton::schedule::reduction {

Crossover min_max_crossover(const McpTable& table, std::size_t a, std::size_t b, std::size_t s, std::size_t hi,
                            const CrossoverBounds& bounds, std::vector<Probe>* probes) {
  Crossover best{.value = std::numeric_limits<double>::infinity(), .slow_left = 0, .lookups = 0};
  // Search the first s' in [0, hi] with left >= right; [first, last_plus_one] holds it.
  std::size_t first = 0;
  std::size_t last_plus_one = hi + 1;
  while (first < last_plus_one) {
    const std::size_t mid = first + (last_plus_one - first) / 2;
    if (mid > bounds.alive_hi) {  // mid and everything above it are known to lose
      last_plus_one = mid;
      continue;
    }
    if (mid < bounds.alive_lo) {  // mid and everything below it are known to lose
      first = mid + 1;
      continue;
    }
    const double left = table.value(a, mid);
    const double right = table.value(b, s - mid);
    ++best.lookups;
    if (probes != nullptr) {
      probes->push_back({a, mid, left});
      probes->push_back({b, s - mid, right});
    }
    if (std::max(left, right) < best.value) {
      best.value = std::max(left, right);
      best.slow_left = mid;
    }
    if (left == right) break;  // the exact crossover: the minimum
    if (left > right) {
      // Below mid the pair is at least right(s') >= right(mid) (Lemma 4).
      if (right >= bounds.cutoff) break;
      last_plus_one = mid;
    } else {
      // Above mid the pair is at least left(s') >= left(mid) (Lemma 4).
      if (left >= bounds.cutoff) break;
      first = mid + 1;
    }
  }
  return best;
}

}  // namespace baton::schedule::reduction
