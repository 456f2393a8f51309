#include "coordinator/schedule/reduction/mcp_table.h"

#include "error/error.h"

#include <bit>

namespace baton::schedule::reduction {

McpTable::McpTable(std::size_t max_fast, std::size_t max_slow, double fast_time)
    : max_slow_(max_slow), fast_time_(fast_time), cells_((max_fast + 1) * (max_slow + 1)) {}

std::uint64_t McpTable::total_lookups() const {
  std::uint64_t total = 0;
  for (const CellSolution& c : cells_) total += c.lookups;
  return total;
}

McpTable fill_mcp_table(const McpTableOptions& options) {
  if (!(options.fast_time > 0) || !(options.fast_time <= options.slow_time)) {
    throw error::InvalidInput("mcp table: need 0 < fast_time <= slow_time");
  }
  McpTable table(options.max_fast, options.max_slow, options.fast_time);
  // (3): with no fast node, the s slow senders and the destination form a binomial tree.
  for (std::size_t s = 0; s <= options.max_slow; ++s) {
    table.set(0, s, {.value = static_cast<double>(std::bit_width(s)) * options.slow_time, .split = {}, .lookups = 0});
  }
  const CellSolver solve = options.variant == DpVariant::naive           ? solve_cell_naive
                           : options.variant == DpVariant::binary_search ? solve_cell_binary_search
                                                                         : solve_cell_pruned;
  for (std::size_t f = 1; f <= options.max_fast; ++f) {
    for (std::size_t s = 0; s <= options.max_slow; ++s) table.set(f, s, solve(table, f, s));
  }
  return table;
}

}  // namespace baton::schedule::reduction
