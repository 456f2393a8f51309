#include "coordinator/schedule/reduction/speed_classes.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace baton::schedule::reduction {
namespace {

std::uint64_t saturating_multiply(std::uint64_t a, std::uint64_t b, std::uint64_t cap) {
  if (a == 0 || b == 0) return 0;
  if (a > cap / b) return cap + 1;
  return std::min(a * b, cap + 1);
}

}  // namespace

std::vector<SpeedClass> speed_classes(const Problem& problem) {
  std::map<double, std::vector<std::size_t>, std::greater<>> by_time;
  for (std::size_t p : senders(problem)) by_time[problem.times[p]].push_back(p);
  std::vector<SpeedClass> classes;
  for (auto& [time, nodes] : by_time) classes.push_back({time, std::move(nodes)});
  return classes;
}

SearchTreeSize search_tree_size(std::span<const std::size_t> class_sizes, std::uint64_t cap) {
  cap = std::min(cap, std::uint64_t{1} << 62);  // so that sums of two counts cannot wrap
  const std::size_t total = std::accumulate(class_sizes.begin(), class_sizes.end(), std::size_t{0});
  // Pascal's triangle, saturated at cap + 1.
  std::vector<std::vector<std::uint64_t>> choose(total + 1);
  for (std::size_t a = 0; a <= total; ++a) {
    choose[a].assign(a + 1, 1);
    for (std::size_t b = 1; b < a; ++b) {
      choose[a][b] = std::min(choose[a - 1][b - 1] + choose[a - 1][b], cap + 1);
    }
  }
  // words[k]: sequences of length k using each class at most its size, built class by
  // class: j copies of the new class go into C(k + j, j) position sets.
  std::vector<std::uint64_t> words(total + 1, 0);
  words[0] = 1;
  std::size_t used = 0;
  for (std::size_t size : class_sizes) {
    std::vector<std::uint64_t> next(total + 1, 0);
    for (std::size_t k = 0; k <= used; ++k) {
      for (std::size_t j = 0; j <= size; ++j) {
        const std::uint64_t more = saturating_multiply(words[k], choose[k + j][j], cap);
        next[k + j] = std::min(next[k + j] + more, cap + 1);
      }
    }
    used += size;
    words = std::move(next);
  }
  SearchTreeSize size;
  for (std::uint64_t w : words) size.nodes = std::min(size.nodes + w, cap + 1);
  size.leaves = words[total];
  size.saturated = size.nodes > cap;
  if (size.saturated) {
    size.nodes = cap;
    size.leaves = std::min(size.leaves, cap);
  }
  return size;
}

}  // namespace baton::schedule::reduction
