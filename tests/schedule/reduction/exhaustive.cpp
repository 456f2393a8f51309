#include "tests/schedule/reduction/exhaustive.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>

namespace baton::schedule::reduction::test {
namespace {

using Multiset = std::vector<double>;  // sorted

double reduce(const Multiset& m, std::map<Multiset, double>& memo) {
  if (m.empty()) return 0;
  if (auto it = memo.find(m); it != memo.end()) return it->second;
  std::vector<double> values = m;
  values.erase(std::unique(values.begin(), values.end()), values.end());
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < values.size(); ++r) {
    Multiset rest = m;
    rest.erase(std::find(rest.begin(), rest.end(), values[r]));
    std::vector<std::size_t> count(values.size(), 0);
    for (double t : rest) ++count[std::lower_bound(values.begin(), values.end(), t) - values.begin()];
    // Every sub-multiset L of rest, as a mixed-radix counter over the value counts.
    std::vector<std::size_t> take(values.size(), 0);
    while (true) {
      Multiset left;
      Multiset right;
      for (std::size_t v = 0; v < values.size(); ++v) {
        left.insert(left.end(), take[v], values[v]);
        right.insert(right.end(), count[v] - take[v], values[v]);
      }
      best = std::min(best, values[r] + std::max(reduce(left, memo), reduce(right, memo)));
      std::size_t v = 0;
      while (v < values.size() && take[v] == count[v]) take[v++] = 0;
      if (v == values.size()) break;
      ++take[v];
    }
  }
  memo.emplace(m, best);
  return best;
}

}  // namespace

double optimal_reduction(std::vector<double> sender_times) {
  std::sort(sender_times.begin(), sender_times.end());
  std::map<Multiset, double> memo;
  return reduce(sender_times, memo);
}

double optimal_broadcast(std::span<const double> times, std::size_t root) {
  const std::size_t n = times.size();
  if (n > 14) throw std::invalid_argument("optimal_broadcast: too many nodes");
  const std::uint32_t all = (std::uint32_t{1} << n) - 1;
  // best[v][S]: v holds the message at time 0 and must inform exactly the nodes in S (v not in S).
  std::vector<std::vector<double>> best(n, std::vector<double>(std::size_t{1} << n, -1));
  auto solve = [&](auto&& self, std::size_t v, std::uint32_t set) -> double {
    if (set == 0) return 0;
    double& memo = best[v][set];
    if (memo >= 0) return memo;
    double result = std::numeric_limits<double>::infinity();
    for (std::size_t u = 0; u < n; ++u) {
      const std::uint32_t bit = std::uint32_t{1} << u;
      if ((set & bit) == 0) continue;
      const std::uint32_t rest = set & ~bit;
      // Every part of `rest` that u serves (u's subtree), v keeps the remainder.
      for (std::uint32_t part = rest;; part = (part - 1) & rest) {
        result = std::min(result, times[v] + std::max(self(self, u, part), self(self, v, rest & ~part)));
        if (part == 0) break;
      }
    }
    memo = result;
    return result;
  };
  return solve(solve, root, all & ~(std::uint32_t{1} << root));
}

std::vector<double> random_times(std::mt19937_64& rng, std::size_t n, std::span<const double> speeds) {
  std::uniform_int_distribution<std::size_t> pick(0, speeds.size() - 1);
  std::vector<double> times(n);
  for (double& t : times) t = speeds[pick(rng)];
  return times;
}

}  // namespace baton::schedule::reduction::test
