// A matching on a BipartiteGraph that survives from one peeling step to the next.
//
// Peeling (Fig. 5 step 5) removes a perfect matching's lightest edges and needs a perfect
// matching of what is left. Instead of starting over, a Matching keeps the edges that are
// still alive and repairs the matching with augmenting paths from the vertices that lost
// their edge — the hot loop of the coordinator. The from-scratch methods exist to measure
// that choice (bench/kpbs_speed) and to check it independently in the tests.
#pragma once

#include "coordinator/schedule/kpbs/bipartite_graph.h"

#include <utility>
#include <vector>

namespace baton::schedule::kpbs {

class Matching {
 public:
  // The graph must outlive the matching; it may gain vertices only before the first call.
  explicit Matching(const BipartiteGraph& graph);

  int edge_of_left(int left) const { return left_[static_cast<std::size_t>(left)]; }
  int size() const { return size_; }
  bool perfect() const;
  std::vector<int> edges() const;  // the matched edges, by left vertex
  double lightest() const;         // smallest weight of a matched edge (0 when empty)

  // Unmatches the edges whose weight reached 0 and forgets them at their left vertex.
  // Returns the left vertices left free that way.
  std::vector<int> drop_dead_edges(BipartiteGraph& graph);

  void clear();
  void unmatch(int left);                      // frees a left vertex and its partner
  void assign(const std::vector<int>& edges);  // makes exactly these edges the matching

  // Augments along the shortest augmenting path from the free left vertex `left` that uses
  // only live edges of weight >= threshold. Returns false when there is none.
  bool augment(int left, double threshold = 0);

  // Augments along the augmenting path from the free left vertex `left` whose lightest new
  // edge is heaviest ("widest"), using only edges heavier than `floor`. Returns that
  // lightest weight, or a negative value when no such path exists.
  double augment_widest(int left, double floor);

  // Grows the matching to maximum cardinality (Hopcroft–Karp) over live edges of weight
  // >= threshold; edges already matched must satisfy the threshold.
  void maximize(double threshold);

 private:
  bool usable(int e, double threshold) const { return graph_->alive(e) && graph_->edge(e).weight >= threshold; }
  void apply_path(int last_edge, int start);
  bool hopcroft_karp_phase(double threshold);
  bool hopcroft_karp_dfs(int left, double threshold);

  const BipartiteGraph* graph_;
  std::vector<int> left_;   // matched edge of each left vertex, -1 if free
  std::vector<int> right_;  // matched edge of each right vertex, -1 if free
  int size_ = 0;

  // Scratch space reused by every search (no allocation per step).
  std::vector<int> parent_edge_;  // edge that reached a left vertex
  std::vector<unsigned> seen_;    // search stamp per left vertex
  unsigned stamp_ = 0;
  std::vector<int> queue_;
  std::vector<double> best_;  // widest-path value per left vertex
  std::vector<std::pair<double, int>> heap_;
  std::vector<int> layer_;         // Hopcroft–Karp BFS layers
  std::vector<std::size_t> next_;  // Hopcroft–Karp DFS cursor
};

}  // namespace baton::schedule::kpbs
