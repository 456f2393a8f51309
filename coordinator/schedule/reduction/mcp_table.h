// The dynamic-programming table of the SNF paper, Section 5.3.2: T(f, s),
// the minimum critical path (MCP) of a reduction tree over f fast and s slow senders and a
// destination whose own time does not matter, for a cluster with two speed classes.
//
//   T(0, s) = ceil(log2(s + 1)) t_s                                          (3)
//   T(f, s) = t_f + min over f_l + f_r = f - 1, s_l + s_r = s of
//             max(T(f_l, s_l), T(f_r, s_r))                            f > 0 (2)
//
// The root of the tree is the last transfer; by Observation 1 it can be a fast node, whose
// subtree (f_l, s_l) reduces into it while (f_r, s_r) reduces into the destination.
// The three ways of solving one cell of (2) that the paper compares (naive, binary search
// by Lemma 4, Lemma 4 + 5 pruning) live in dp_naive.cpp, dp_binary_search.cpp and
// dp_pruned.cpp; each counts the table look-ups it makes, as Tables 2-4 do: one look-up
// is one buddy pair (f_l, s_l), (f_r, s_r) whose max is taken.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace baton::schedule::reduction {

// The left part of a split of (2): (f_l, s_l); the right part is (f - 1 - f_l, s - s_l).
struct Split {
  std::size_t fast_left = 0;
  std::size_t slow_left = 0;
};

// One solved cell: its value T(f, s), the split reaching it, and what it cost.
struct CellSolution {
  double value = 0;
  Split split;
  std::uint64_t lookups = 0;
};

class McpTable {
 public:
  McpTable(std::size_t max_fast, std::size_t max_slow, double fast_time);

  double fast_time() const { return fast_time_; }

  double value(std::size_t f, std::size_t s) const { return cells_[index(f, s)].value; }
  const CellSolution& cell(std::size_t f, std::size_t s) const { return cells_[index(f, s)]; }
  void set(std::size_t f, std::size_t s, const CellSolution& solution) { cells_[index(f, s)] = solution; }
  std::uint64_t total_lookups() const;

 private:
  std::size_t index(std::size_t f, std::size_t s) const { return f * (max_slow_ + 1) + s; }

  std::size_t max_slow_;
  double fast_time_;
  std::vector<CellSolution> cells_;
};

// Solves cell (f, s), f > 0, of (2) from cells with fewer fast nodes.
using CellSolver = CellSolution (*)(const McpTable& table, std::size_t f, std::size_t s);

CellSolution solve_cell_naive(const McpTable& table, std::size_t f, std::size_t s);
CellSolution solve_cell_binary_search(const McpTable& table, std::size_t f, std::size_t s);
CellSolution solve_cell_pruned(const McpTable& table, std::size_t f, std::size_t s);

enum class DpVariant { naive, binary_search, pruned };

struct McpTableOptions {
  std::size_t max_fast = 0;
  std::size_t max_slow = 0;
  double fast_time = 1;  // t_f <= t_s
  double slow_time = 2;
  DpVariant variant = DpVariant::pruned;
};

// Every T(f, s) for f <= max_fast, s <= max_slow: (3) on the f = 0 row, then (2) row by row.
McpTable fill_mcp_table(const McpTableOptions& options);

}  // namespace baton::schedule::reduction
