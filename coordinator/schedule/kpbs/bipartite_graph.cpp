#include "coordinator/schedule/kpbs/bipartite_graph.h"

#include "error/error.h"

#include <algorithm>

namespace baton::schedule::kpbs {

BipartiteGraph::BipartiteGraph(int left_count, int right_count)
    : right_count_(right_count), adjacency_(static_cast<std::size_t>(left_count)) {}

int BipartiteGraph::add_left() {
  adjacency_.emplace_back();
  return left_count() - 1;
}

int BipartiteGraph::add_right() { return right_count_++; }

int BipartiteGraph::add_edge(int left, int right, double weight, EdgeKind kind, int origin) {
  if (left < 0 || left >= left_count() || right < 0 || right >= right_count_ || !(weight > 0)) {
    throw error::InvalidInput("BipartiteGraph::add_edge: bad endpoint or weight");
  }
  edges_.push_back(Edge{left, right, weight, kind, origin});
  const int id = edge_count() - 1;
  adjacency_[static_cast<std::size_t>(left)].push_back(id);
  return id;
}

void BipartiteGraph::forget_dead_edges_of(int left) {
  auto& adj = adjacency_[static_cast<std::size_t>(left)];
  adj.erase(std::remove_if(adj.begin(), adj.end(), [this](int e) { return !alive(e); }), adj.end());
}

std::vector<double> BipartiteGraph::left_weights() const {
  std::vector<double> w(adjacency_.size(), 0.0);
  for (const Edge& e : edges_) {
    if (e.weight > 0) w[static_cast<std::size_t>(e.left)] += e.weight;
  }
  return w;
}

std::vector<double> BipartiteGraph::right_weights() const {
  std::vector<double> w(static_cast<std::size_t>(right_count_), 0.0);
  for (const Edge& e : edges_) {
    if (e.weight > 0) w[static_cast<std::size_t>(e.right)] += e.weight;
  }
  return w;
}

}  // namespace baton::schedule::kpbs
