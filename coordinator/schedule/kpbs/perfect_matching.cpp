#include "coordinator/schedule/kpbs/perfect_matching.h"

#include <algorithm>
#include <limits>

namespace baton::schedule::kpbs {
namespace {
constexpr int kFree = -1;
constexpr int kUnreached = std::numeric_limits<int>::max();
}  // namespace

Matching::Matching(const BipartiteGraph& graph)
    : graph_(&graph), left_(static_cast<std::size_t>(graph.left_count()), kFree),
      right_(static_cast<std::size_t>(graph.right_count()), kFree), parent_edge_(left_.size(), kFree),
      seen_(left_.size(), 0), best_(left_.size(), 0), layer_(left_.size(), 0), next_(left_.size(), 0) {}

bool Matching::perfect() const { return size_ == graph_->left_count() && size_ == graph_->right_count(); }

std::vector<int> Matching::edges() const {
  std::vector<int> out;
  out.reserve(static_cast<std::size_t>(size_));
  for (int e : left_) {
    if (e != kFree) out.push_back(e);
  }
  return out;
}

double Matching::lightest() const {
  double lightest = std::numeric_limits<double>::infinity();
  for (int e : left_) {
    if (e != kFree) lightest = std::min(lightest, graph_->edge(e).weight);
  }
  return size_ == 0 ? 0.0 : lightest;
}

std::vector<int> Matching::drop_dead_edges(BipartiteGraph& graph) {
  std::vector<int> freed;
  for (int u = 0; u < graph.left_count(); ++u) {
    const int e = left_[static_cast<std::size_t>(u)];
    if (e == kFree || graph.alive(e)) continue;
    left_[static_cast<std::size_t>(u)] = kFree;
    right_[static_cast<std::size_t>(graph.edge(e).right)] = kFree;
    --size_;
    graph.forget_dead_edges_of(u);
    freed.push_back(u);
  }
  return freed;
}

void Matching::clear() {
  std::fill(left_.begin(), left_.end(), kFree);
  std::fill(right_.begin(), right_.end(), kFree);
  size_ = 0;
}

void Matching::unmatch(int u) {
  const int e = left_[static_cast<std::size_t>(u)];
  if (e == kFree) return;
  left_[static_cast<std::size_t>(u)] = kFree;
  right_[static_cast<std::size_t>(graph_->edge(e).right)] = kFree;
  --size_;
}

void Matching::assign(const std::vector<int>& edges) {
  clear();
  for (int e : edges) {
    left_[static_cast<std::size_t>(graph_->edge(e).left)] = e;
    right_[static_cast<std::size_t>(graph_->edge(e).right)] = e;
  }
  size_ = static_cast<int>(edges.size());
}

// Makes `last_edge` matched and flips the alternating path that led to its left end back
// to `start`, following parent_edge_.
void Matching::apply_path(int last_edge, int start) {
  int e = last_edge;
  for (;;) {
    const Edge& edge = graph_->edge(e);
    const int next = edge.left == start ? kFree : parent_edge_[static_cast<std::size_t>(edge.left)];
    left_[static_cast<std::size_t>(edge.left)] = e;
    right_[static_cast<std::size_t>(edge.right)] = e;
    if (next == kFree) break;
    e = next;
  }
  ++size_;
}

bool Matching::augment(int start, double threshold) {
  ++stamp_;
  queue_.clear();
  queue_.push_back(start);
  seen_[static_cast<std::size_t>(start)] = stamp_;
  for (std::size_t head = 0; head < queue_.size(); ++head) {
    const int u = queue_[head];
    for (int e : graph_->edges_of(u)) {
      if (!usable(e, threshold) || e == left_[static_cast<std::size_t>(u)]) continue;
      const int v = graph_->edge(e).right;
      const int mate_edge = right_[static_cast<std::size_t>(v)];
      if (mate_edge == kFree) {
        apply_path(e, start);
        return true;
      }
      const int w = graph_->edge(mate_edge).left;
      if (seen_[static_cast<std::size_t>(w)] == stamp_) continue;
      seen_[static_cast<std::size_t>(w)] = stamp_;
      parent_edge_[static_cast<std::size_t>(w)] = e;
      queue_.push_back(w);
    }
  }
  return false;
}

// A bottleneck (maximin) variant of Dijkstra over alternating paths: a left vertex's label
// is the heaviest "lightest unmatched edge" of any alternating path reaching it. Matched
// edges stay matched off the path and leave it when flipped, so only the unmatched edges
// the path brings in count.
double Matching::augment_widest(int start, double floor) {
  ++stamp_;
  heap_.clear();
  best_[static_cast<std::size_t>(start)] = std::numeric_limits<double>::infinity();
  seen_[static_cast<std::size_t>(start)] = stamp_;
  heap_.emplace_back(best_[static_cast<std::size_t>(start)], start);
  double best_end = -1;
  int end_edge = kFree;
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end());
    const auto [value, u] = heap_.back();
    heap_.pop_back();
    if (value <= best_end) break;                              // nothing left in the heap can beat the path found
    if (value < best_[static_cast<std::size_t>(u)]) continue;  // stale entry
    for (int e : graph_->edges_of(u)) {
      const double w = graph_->edge(e).weight;
      if (w <= floor || e == left_[static_cast<std::size_t>(u)]) continue;
      const double through = std::min(value, w);
      const int v = graph_->edge(e).right;
      const int mate_edge = right_[static_cast<std::size_t>(v)];
      if (mate_edge == kFree) {
        if (through > best_end) {
          best_end = through;
          end_edge = e;
        }
        continue;
      }
      const auto x = static_cast<std::size_t>(graph_->edge(mate_edge).left);
      if (seen_[x] == stamp_ && best_[x] >= through) continue;
      seen_[x] = stamp_;
      best_[x] = through;
      parent_edge_[x] = e;
      heap_.emplace_back(through, static_cast<int>(x));
      std::push_heap(heap_.begin(), heap_.end());
    }
  }
  if (end_edge == kFree) return -1;
  apply_path(end_edge, start);
  return best_end;
}

void Matching::maximize(double threshold) {
  while (hopcroft_karp_phase(threshold)) {
  }
}

// One phase of Hopcroft–Karp: BFS layers from every free left vertex, then vertex-disjoint
// shortest augmenting paths by DFS along the layers. Returns whether it augmented.
bool Matching::hopcroft_karp_phase(double threshold) {
  queue_.clear();
  for (int u = 0; u < graph_->left_count(); ++u) {
    if (left_[static_cast<std::size_t>(u)] == kFree) {
      layer_[static_cast<std::size_t>(u)] = 0;
      queue_.push_back(u);
    } else {
      layer_[static_cast<std::size_t>(u)] = kUnreached;
    }
  }
  bool reaches_free = false;
  for (std::size_t head = 0; head < queue_.size(); ++head) {
    const int u = queue_[head];
    for (int e : graph_->edges_of(u)) {
      if (!usable(e, threshold)) continue;
      const int mate_edge = right_[static_cast<std::size_t>(graph_->edge(e).right)];
      if (mate_edge == kFree) {
        reaches_free = true;
        continue;
      }
      const auto w = static_cast<std::size_t>(graph_->edge(mate_edge).left);
      if (layer_[w] != kUnreached) continue;
      layer_[w] = layer_[static_cast<std::size_t>(u)] + 1;
      queue_.push_back(static_cast<int>(w));
    }
  }
  if (!reaches_free) return false;
  std::fill(next_.begin(), next_.end(), 0);
  bool augmented = false;
  for (int u = 0; u < graph_->left_count(); ++u) {
    if (left_[static_cast<std::size_t>(u)] == kFree && hopcroft_karp_dfs(u, threshold)) {
      ++size_;
      augmented = true;
    }
  }
  return augmented;
}

bool Matching::hopcroft_karp_dfs(int u, double threshold) {
  const auto& adj = graph_->edges_of(u);
  const auto uu = static_cast<std::size_t>(u);
  for (std::size_t& i = next_[uu]; i < adj.size(); ++i) {
    const int e = adj[i];
    if (!usable(e, threshold)) continue;
    const int v = graph_->edge(e).right;
    const int mate_edge = right_[static_cast<std::size_t>(v)];
    bool found = mate_edge == kFree;
    if (!found) {
      const int w = graph_->edge(mate_edge).left;
      found = layer_[static_cast<std::size_t>(w)] == layer_[uu] + 1 && hopcroft_karp_dfs(w, threshold);
    }
    if (found) {
      left_[uu] = e;
      right_[static_cast<std::size_t>(v)] = e;
      ++i;
      return true;
    }
  }
  layer_[uu] = kUnreached;
  return false;
}

}  // namespace baton::schedule::kpbs
