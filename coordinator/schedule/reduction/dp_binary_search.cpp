// Equation (2) with Lemma 4 (Section 5.3.3, Theorem 5): for each split f_l + f_r = f - 1
// of the fast nodes (f_l <= f_r), the best split of the slow nodes by the binary search of
// (4). When f_l = f_r, s_l <= s / 2 covers every pair.
#include "coordinator/schedule/reduction/dp_crossover.h"
#include "coordinator/schedule/reduction/mcp_table.h"

#include <limits>

namespace baton::schedule::reduction {

CellSolution solve_cell_binary_search(const McpTable& table, std::size_t f, std::size_t s) {
  CellSolution best{.value = std::numeric_limits<double>::infinity(), .split = {}, .lookups = 0};
  const std::size_t rest = f - 1;
  for (std::size_t left = 0; 2 * left <= rest; ++left) {
    const std::size_t right = rest - left;
    const Crossover m = min_max_crossover(table, left, right, s, left < right ? s : s / 2);
    best.lookups += m.lookups;
    if (m.value < best.value) {
      best.value = m.value;
      best.split = {left, m.slow_left};
    }
  }
  best.value += table.fast_time();
  return best;
}

}  // namespace baton::schedule::reduction
