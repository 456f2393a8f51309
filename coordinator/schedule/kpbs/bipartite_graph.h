// A weighted bipartite graph that peeling and the heuristics consume edge by edge.
//
// Vertices are numbered per side (left = senders of C1, right = receivers of C2). An edge
// whose weight reaches 0 is dead: it stays in the edge table (its id stays valid) and is
// dropped from its left vertex's adjacency by `forget_dead_edges_of`.
#pragma once

#include <cstddef>
#include <vector>

namespace baton::schedule::kpbs {

// Where an edge of GGP's graphs comes from (Fig. 5 and Fig. 6 of the kpbs paper).
enum class EdgeKind {
  real,     // an edge of G: a transfer to schedule
  padding,  // added to build I (Fig. 5 step 2): in I, not in G
  regular,  // added to build J (Fig. 6): not in I
};

struct Edge {
  int left = 0;
  int right = 0;
  double weight = 0;  // > 0 while alive
  EdgeKind kind = EdgeKind::real;
  int origin = -1;  // for real edges: the index the caller gave the transfer
};

class BipartiteGraph {
 public:
  BipartiteGraph(int left_count, int right_count);

  int add_left();  // returns the new vertex
  int add_right();
  int add_edge(int left, int right, double weight, EdgeKind kind = EdgeKind::real, int origin = -1);

  int left_count() const { return static_cast<int>(adjacency_.size()); }
  int right_count() const { return right_count_; }
  int edge_count() const { return static_cast<int>(edges_.size()); }

  const Edge& edge(int e) const { return edges_[static_cast<std::size_t>(e)]; }
  Edge& edge(int e) { return edges_[static_cast<std::size_t>(e)]; }
  bool alive(int e) const { return edges_[static_cast<std::size_t>(e)].weight > 0; }

  // Ids of the edges at a left vertex (dead ones included until forgotten).
  const std::vector<int>& edges_of(int left) const { return adjacency_[static_cast<std::size_t>(left)]; }
  void forget_dead_edges_of(int left);

  // Sum of the weights of the live edges at a vertex: w(s) in the papers.
  std::vector<double> left_weights() const;
  std::vector<double> right_weights() const;

 private:
  int right_count_ = 0;
  std::vector<Edge> edges_;
  std::vector<std::vector<int>> adjacency_;
};

}  // namespace baton::schedule::kpbs
