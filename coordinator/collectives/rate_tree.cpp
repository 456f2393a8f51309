#include "coordinator/collectives/rate_tree.h"

#include "error/error.h"

#include <algorithm>
#include <numeric>

namespace baton::collectives {

std::vector<std::size_t> rate_tree(const std::vector<double>& rates, std::size_t root, TreeLoad load,
                                   double startup_per_byte) {
  if (rates.empty() || root >= rates.size()) throw error::Bug("plan compiler: a tree without its root");
  if (std::ranges::any_of(rates, [](double r) { return !(r > 0); }))
    throw error::Bug("plan compiler: a tree over a node of no rate");
  if (!(startup_per_byte >= 0)) throw error::Bug("plan compiler: a tree with a negative start-up");
  const double slowest = *std::ranges::min_element(rates);
  // The share of the floor a message between p and q takes of either's link, a segment at
  // a time: (β/s + 1/min(r_p, r_q)) / (β/s + 1/r_min).
  const double floor = startup_per_byte + 1 / slowest;
  const auto share = [&](std::size_t p, std::size_t q) {
    return (startup_per_byte + 1 / std::min(rates[p], rates[q])) / floor;
  };
  // A hair of slack, so that a share computed 1e-12 over an exact fit still fits.
  constexpr double slack = 1e-9;
  const double whole = load == TreeLoad::one_way ? 1.0 : 2.0;

  std::vector<std::size_t> others(rates.size());
  std::iota(others.begin(), others.end(), std::size_t{0});
  std::erase(others, root);
  std::ranges::stable_sort(others, [&](std::size_t a, std::size_t b) { return rates[a] > rates[b]; });

  std::vector<std::size_t> parent(rates.size(), root);
  std::vector<double> room(rates.size(), 0);
  room[root] = whole;
  std::vector<std::size_t> placed{root};
  for (const std::size_t q : others) {
    // A leaf always has room for one child of any rate, so some placed node does.
    const auto under = std::ranges::find_if(placed, [&](std::size_t p) { return room[p] + slack >= share(p, q); });
    const std::size_t p = under == placed.end() ? placed.back() : *under;
    parent[q] = p;
    room[p] -= share(p, q);
    room[q] = load == TreeLoad::one_way ? whole : whole - share(p, q);
    placed.push_back(q);
  }
  return parent;
}

}  // namespace baton::collectives
