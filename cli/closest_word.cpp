#include "cli/closest_word.h"

#include <algorithm>

namespace baton::cli {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // Row i holds the edits from a's first i letters to b's first j, for every j; a swap
  // looks two rows back, so three rows are kept (memory linear in b, whatever a's length).
  std::vector<std::size_t> before(b.size() + 1), last(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) last[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = last[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({last[j] + 1, row[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, last);
    std::swap(last, row);
  }
  return last[b.size()];
}

std::optional<std::string> closest_word(const std::string& word, const std::vector<std::string>& candidates) {
  const std::size_t near_enough = word.size() <= 4 ? 1 : 2;
  std::optional<std::string> best;
  std::size_t best_distance = near_enough + 1;
  bool tied = false;
  for (const std::string& candidate : candidates) {
    // Words whose lengths differ by more than near_enough are farther apart than that.
    const std::size_t length_gap = std::max(word.size(), candidate.size()) - std::min(word.size(), candidate.size());
    if (length_gap > near_enough) continue;
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

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates, char quote) {
  const std::optional<std::string> guess = closest_word(word, candidates);
  return guess ? " (did you mean " + std::string(1, quote) + *guess + quote + "?)" : "";
}

}  // namespace baton::cli
