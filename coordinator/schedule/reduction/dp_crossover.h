// Equation (4) by binary search (the SNF paper, Section 5.3.3):
//   M = min over s' in [0, hi] of max(T(a, s'), T(b, s - s')).
// By Lemma 4, T(a, s') does not decrease and T(b, s - s') does not increase with s', so the
// minimum sits at their crossover: the first s' with T(a, s') >= T(b, s - s'), or the one
// before it. Both are probed by the search, which stops early when the two are equal
// (then neither side can go lower). Shared by dp_binary_search.cpp and dp_pruned.cpp; the
// pruned version also passes what it knows cannot beat its best pair (CrossoverBounds).
#pragma once

#include "coordinator/schedule/reduction/mcp_table.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace baton::schedule::reduction {

// A table entry read during the search, with its value.
struct Probe {
  std::size_t fast = 0;
  std::size_t slow = 0;
  double value = 0;
};

struct CrossoverBounds {
  // Only s' in [alive_lo, alive_hi] can give a pair below `cutoff`; a search step landing
  // outside goes the right way without a look-up.
  std::size_t alive_lo = 0;
  std::size_t alive_hi = std::numeric_limits<std::size_t>::max();
  // The search stops once every s' still in play is known to give at least this.
  double cutoff = std::numeric_limits<double>::infinity();
};

struct Crossover {
  double value = 0;           // the best max found (M unless stopped by the cutoff)
  std::size_t slow_left = 0;  // the s' reaching it
  std::uint64_t lookups = 0;  // pairs probed
};

// `probes`, when given, receives both entries of every probed pair.
Crossover min_max_crossover(const McpTable& table, std::size_t a, std::size_t b, std::size_t s, std::size_t hi,
                            const CrossoverBounds& bounds = {}, std::vector<Probe>* probes = nullptr);

}  // namespace baton::schedule::reduction
