#include "coordinator/schedule/reduction/sequence_search.h"

#include "coordinator/schedule/reduction/earliest_possible.h"
#include "coordinator/schedule/reduction/speed_classes.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace baton::schedule::reduction {
namespace {

class Search {
 public:
  Search(const Problem& problem, const SearchPolicy& policy, const SearchOptions& options)
      : problem_(problem), policy_(policy), options_(options), classes_(speed_classes(problem)) {
    branch_order_.resize(classes_.size());
    std::iota(branch_order_.begin(), branch_order_.end(), std::size_t{0});
    if (!policy.slowest_class_first) {
      std::sort(branch_order_.begin(), branch_order_.end(),
                [&](std::size_t a, std::size_t b) { return classes_[a].nodes.front() < classes_[b].nodes.front(); });
    }
    used_.assign(classes_.size(), 0);
    sender_count_ = problem.times.size() - 1;
    result_.makespan = std::numeric_limits<double>::infinity();
  }

  SearchResult run() {
    result_.visited_nodes = 1;  // the root
    result_.expanded_nodes = 1;
    if (sender_count_ == 0) {
      result_.makespan = 0;
      return result_;
    }
    // One EP state per depth, reused, so that branching copies without allocating.
    const EarliestPossible root(problem_.times, problem_.times.size());
    states_.assign(sender_count_ + 1, root);
    extend(0);
    return result_;
  }

 private:
  bool should_stop() {
    if (options_.max_nodes != 0 && result_.visited_nodes >= options_.max_nodes) return true;
    if (options_.stop_requested && result_.visited_nodes % 1024 == 0 && options_.stop_requested()) {
      return true;
    }
    return false;
  }

  // Corollary 1: the newest sender's predecessors must be at least as slow as it is.
  bool has_faster_predecessor(const EarliestPossible& ep) const {
    const EpSlot& newest = ep.slots().back();
    for (const std::optional<std::size_t>& predecessor : newest.predecessors) {
      if (predecessor && problem_.times[ep.slots()[*predecessor].sender] < problem_.times[newest.sender]) {
        return true;
      }
    }
    return false;
  }

  // Tries every class as the next sender after the prefix held in states_[depth].
  void extend(std::size_t depth) {
    for (std::size_t c : branch_order_) {
      if (used_[c] == classes_[c].nodes.size()) continue;
      if (should_stop()) {
        result_.complete = false;
        return;
      }
      ++result_.visited_nodes;
      EarliestPossible& child = states_[depth + 1];
      child = states_[depth];
      child.add(classes_[c].nodes[used_[c]]);
      if (policy_.corollary1_pruning && has_faster_predecessor(child)) continue;
      if (child.latest_end() >= result_.makespan) continue;  // the bound
      ++result_.expanded_nodes;
      if (child.slots().size() == sender_count_) {
        result_.makespan = child.latest_end();
        result_.order.clear();
        for (const EpSlot& slot : child.slots()) result_.order.push_back(slot.sender);
        result_.nodes_to_best = result_.visited_nodes;
        continue;
      }
      ++used_[c];
      extend(depth + 1);
      --used_[c];
      if (!result_.complete) return;
    }
  }

  const Problem& problem_;
  const SearchPolicy& policy_;
  const SearchOptions& options_;
  std::vector<SpeedClass> classes_;
  std::vector<std::size_t> branch_order_;
  std::vector<std::size_t> used_;
  std::vector<EarliestPossible> states_;
  std::size_t sender_count_ = 0;
  SearchResult result_;
};

}  // namespace

SearchResult search_sender_orders(const Problem& problem, const SearchPolicy& policy, const SearchOptions& options) {
  check(problem);
  return Search(problem, policy, options).run();
}

}  // namespace baton::schedule::reduction
