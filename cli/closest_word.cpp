#include "cli/closest_word.h"

#include <algorithm>

namespace baton::cli {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // d[i][j]: edits from a's first i letters to b's first j, row by row.
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::optional<std::string> closest_word(const std::string& word, const std::vector<std::string>& candidates) {
  const std::size_t near_enough = word.size() <= 4 ? 1 : 2;
  std::optional<std::string> best;
  std::size_t best_distance = near_enough + 1;
  bool tied = false;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = edit_distance(word, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
      tied = false;
    } else if (distance == best_distance && candidate != best) {
      tied = true;
    }
  }
  if (tied) return std::nullopt;
  return best;
}

}  // namespace baton::cli
