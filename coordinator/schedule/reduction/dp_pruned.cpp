// Equation (2) with Lemmas 4 and 5 (Section 5.3.4): the binary search of (4), skipping the
// buddy pairs that cannot beat the best pair found so far.
//
// Lemma 4: T(f, s + 1) >= T(f, s). Lemma 5: T(f + 1, s) >= T(f, s) when f >= s - 1. So
// when a probed entry X has T(X) >= best, every entry above it in its column is no better
// (Lemma 4), and if X lies in the region f >= s - 1 of Lemma 5, so is every entry Y with
// Y.f >= X.f and Y.s >= X.s (Fig. 12: a whole quadrant). A pair with such a "dead" entry on
// either side cannot improve on best, so each fast split only searches the window of s_l
// whose two entries are both alive, and is skipped when the window is empty.
//
// Within a column the search also stops once every s' still in play is known to give at
// least the best pair (Lemma 4 on each side), and steps landing on a dead s' go the right
// way without a look-up.
//
// Figs. 13-16 (not in our copy of the paper) derive the same kind of regions for points on
// the line s = f + 1; we apply the quadrant rule to every probed entry instead, which
// covers those cases. Order of the fast splits: the balanced one (f_l = (f - 1) / 2, the
// paper's point C) first for an early bound, then f_l = 0, 1, ... so that each column f_l
// can use the quadrants of the columns left of it (a quadrant from column c covers
// columns >= c). Measured at c_s = 2 over the 150 x 150 table: 1.0 M look-ups, against
// 1.6 M going from C down to 0 and 1.2 M going up from 0 without C first.
#include "coordinator/schedule/reduction/dp_crossover.h"
#include "coordinator/schedule/reduction/mcp_table.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace baton::schedule::reduction {
namespace {

constexpr std::size_t kAlive = std::numeric_limits<std::size_t>::max();

// For every column c, the lowest s from which the column is known to be dead.
class DeadRegions {
 public:
  explicit DeadRegions(std::size_t columns) : column_(columns, kAlive), quadrant_prefix_(columns + 1, kAlive) {}

  void mark(const Probe& dead) {
    column_[dead.fast] = std::min(column_[dead.fast], dead.slow);
    if (dead.fast + 1 >= dead.slow) {  // Lemma 5 holds from here on: a quadrant
      for (std::size_t i = dead.fast + 1; i < quadrant_prefix_.size(); i += i & (~i + 1)) {
        quadrant_prefix_[i] = std::min(quadrant_prefix_[i], dead.slow);
      }
    }
  }

  // The lowest dead s in column c: its own dead entries, or a quadrant from a column <= c.
  std::size_t dead_from(std::size_t c) const {
    std::size_t lowest = column_[c];
    for (std::size_t i = c + 1; i > 0; i -= i & (~i + 1)) {
      lowest = std::min(lowest, quadrant_prefix_[i]);
    }
    return lowest;
  }

 private:
  std::vector<std::size_t> column_;
  std::vector<std::size_t> quadrant_prefix_;  // Fenwick tree of prefix minima over columns
};

}  // namespace

CellSolution solve_cell_pruned(const McpTable& table, std::size_t f, std::size_t s) {
  CellSolution best{.value = std::numeric_limits<double>::infinity(), .split = {}, .lookups = 0};
  const std::size_t rest = f - 1;
  DeadRegions dead(rest + 1);
  std::vector<Probe> alive;  // probed entries below the current best
  std::vector<Probe> probes;
  // The balanced split first (the paper's point C), then f_l = 0, 1, ...
  std::vector<std::size_t> order{rest / 2};
  for (std::size_t left = 0; left < rest / 2; ++left) order.push_back(left);
  for (std::size_t left : order) {
    const std::size_t right = rest - left;
    const std::size_t hi = left < right ? s : s / 2;
    CrossoverBounds bounds{.alive_lo = 0, .alive_hi = hi, .cutoff = best.value};
    const std::size_t left_dead = dead.dead_from(left);
    const std::size_t right_dead = dead.dead_from(right);
    if (left_dead == 0 || right_dead == 0) continue;
    if (left_dead != kAlive) bounds.alive_hi = std::min(hi, left_dead - 1);
    if (right_dead <= s) bounds.alive_lo = s - right_dead + 1;
    if (bounds.alive_lo > bounds.alive_hi) continue;

    probes.clear();
    const Crossover m = min_max_crossover(table, left, right, s, hi, bounds, &probes);
    best.lookups += m.lookups;
    if (m.value < best.value) {
      best.value = m.value;
      best.split = {left, m.slow_left};
      // A lower best kills entries that were alive under the old one.
      std::erase_if(alive, [&](const Probe& p) {
        if (p.value < best.value) return false;
        dead.mark(p);
        return true;
      });
    }
    for (const Probe& p : probes) {
      if (p.value >= best.value) {
        dead.mark(p);
      } else {
        alive.push_back(p);
      }
    }
  }
  best.value += table.fast_time();
  return best;
}

}  // namespace baton::schedule::reduction
