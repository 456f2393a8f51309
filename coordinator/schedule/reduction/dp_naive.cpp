// Equation (2) by brute force: every buddy pair once. The pair (f_l, s_l), (f_r, s_r) is
// the same as (f_r, s_r), (f_l, s_l), so f_l <= f_r, and s_l <= s_r when f_l = f_r:
// ceil(f (s + 1) / 2) look-ups per cell.
#include "coordinator/schedule/reduction/mcp_table.h"

#include <algorithm>
#include <limits>

namespace baton::schedule::reduction {

CellSolution solve_cell_naive(const McpTable& table, std::size_t f, std::size_t s) {
  CellSolution best{.value = std::numeric_limits<double>::infinity(), .split = {}, .lookups = 0};
  const std::size_t rest = f - 1;
  for (std::size_t left = 0; 2 * left <= rest; ++left) {
    const std::size_t right = rest - left;
    const std::size_t last_slow = left < right ? s : s / 2;
    for (std::size_t slow = 0; slow <= last_slow; ++slow) {
      ++best.lookups;
      const double longer = std::max(table.value(left, slow), table.value(right, s - slow));
      if (longer < best.value) {
        best.value = longer;
        best.split = {left, slow};
      }
    }
  }
  best.value += table.fast_time();
  return best;
}

}  // namespace baton::schedule::reduction
