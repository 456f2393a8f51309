#include "coordinator/schedule/kpbs_exact/valid_matchings.h"

#include <bit>

namespace baton::schedule::kpbs_exact {

EdgeList edge_list(const kpbs::Problem& problem) {
  EdgeList list;
  for (std::size_t i = 0; i < problem.times.senders(); ++i) {
    for (std::size_t j = 0; j < problem.times.receivers(); ++j) {
      if (problem.times.at(i, j) > 0) {
        list.ends.emplace_back(i, j);
        list.times.push_back(problem.times.at(i, j));
      }
    }
  }
  return list;
}

namespace {

class Enumerator {
 public:
  Enumerator(const EdgeList& edges, int k, std::size_t limit) : edges_(edges), k_(k), limit_(limit) {
    const std::size_t m = edges.ends.size();
    conflicts_.assign(m, 0);
    for (std::size_t a = 0; a < m; ++a) {
      for (std::size_t b = 0; b < m; ++b) {
        if (a != b && (edges.ends[a].first == edges.ends[b].first || edges.ends[a].second == edges.ends[b].second)) {
          conflicts_[a] |= std::uint64_t{1} << b;
        }
      }
    }
  }

  bool run() {
    visit(0, 0, 0);
    return !overflow_;
  }
  std::vector<std::uint64_t>& found() { return found_; }

 private:
  // Edges 0..e-1 are decided; `blocked` holds the edges sharing an end with `mask`.
  void visit(std::size_t e, std::uint64_t mask, std::uint64_t blocked) {
    if (overflow_ || ++visited_ > 256 * limit_) {
      overflow_ = true;
      return;
    }
    const int size = std::popcount(mask);
    if (e == edges_.ends.size() || size == k_) {
      if (size == k_ || is_maximal(mask, blocked)) {
        if (found_.size() == limit_) {
          overflow_ = true;
          return;
        }
        found_.push_back(mask);
      }
      return;
    }
    const std::uint64_t bit = std::uint64_t{1} << e;
    visit(e + 1, mask, blocked);
    if (!(blocked & bit)) visit(e + 1, mask | bit, blocked | conflicts_[e]);
  }

  bool is_maximal(std::uint64_t mask, std::uint64_t blocked) const {
    const std::size_t m = edges_.ends.size();
    const std::uint64_t all = m == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << m) - 1;
    return ((mask | blocked) & all) == all;
  }

  const EdgeList& edges_;
  int k_;
  std::size_t limit_;
  std::vector<std::uint64_t> conflicts_;
  std::vector<std::uint64_t> found_;
  std::size_t visited_ = 0;
  bool overflow_ = false;
};

}  // namespace

std::optional<std::vector<std::uint64_t>> maximal_valid_matchings(const kpbs::Problem& problem, std::size_t limit) {
  const EdgeList edges = edge_list(problem);
  if (edges.ends.size() > 64) return std::nullopt;
  Enumerator enumerator(edges, problem.k, limit);
  if (!enumerator.run()) return std::nullopt;
  return std::move(enumerator.found());
}

int first_superset(const std::vector<std::uint64_t>& matchings, std::uint64_t mask) {
  for (std::size_t j = 0; j < matchings.size(); ++j) {
    if ((matchings[j] & mask) == mask) return static_cast<int>(j);
  }
  return -1;
}

}  // namespace baton::schedule::kpbs_exact
