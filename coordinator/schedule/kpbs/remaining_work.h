// What is left to send while a schedule is built step by step, and the lower bound η
// (Proposition 1 of the kpbs paper) of that remainder.
//
// The bookkeeping behind the waste-greedy planner (waste_greedy.h): after any prefix of a
// schedule, cost(prefix) + η(remainder) is a lower bound on every completion of it, and
// a step never lowers that sum (see `waste`), so the planner can watch it grow.
#pragma once

#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/schedule.h"

#include <cstddef>
#include <vector>

namespace baton::schedule::kpbs {

struct LiveEdge {
  int sender = 0;    // 0 .. senders-1
  int receiver = 0;  // senders .. senders+receivers-1: one vertex numbering for both sides
  double left = 0;   // time still to send (0 once the edge is done)
};

// One step being considered: the edges (ids: indices into RemainingWork::edges()) and how
// long the step lasts. Each edge sends min(left, duration).
struct CandidateStep {
  std::vector<int> edges;
  double duration = 0;
};

class RemainingWork {
 public:
  explicit RemainingWork(const Problem& problem);

  // Every edge of the problem, by id; an edge that is done stays with left == 0.
  const std::vector<LiveEdge>& edges() const { return edges_; }
  const LiveEdge& edge(int id) const { return edges_[static_cast<std::size_t>(id)]; }
  // Ids of the edges with time left, increasing.
  const std::vector<int>& live() const { return live_; }
  bool done() const { return live_.empty(); }
  int senders() const { return senders_; }
  int vertices() const { return static_cast<int>(degree_.size()); }
  int degree(int vertex) const { return degree_[static_cast<std::size_t>(vertex)]; }
  double load(int vertex) const { return load_[static_cast<std::size_t>(vertex)]; }

  // η of the remainder: eta_d = max(W, P/k), eta_s = max(Δ, ⌈m/k⌉).
  double eta_d() const { return eta_d_; }
  long eta_s() const { return eta_s_; }
  double eta() const { return eta_d_ + beta_ * static_cast<double>(eta_s_); }

  // η of what would be left after `step`, without applying it. O(vertices + |step|).
  double eta_after(const CandidateStep& step) const;

  // β + duration − (η before − η after): how much the step raises cost-so-far + η(rest).
  // Never negative: a step lowers W and P/k by at most its duration (a vertex sends for
  // at most that long; at most k edges send), and Δ and ⌈m/k⌉ by at most one (a vertex
  // loses at most one edge; at most k edges end). So a schedule's cost is η of the whole
  // problem plus the sum of its steps' waste.
  double waste(const CandidateStep& step) const;

  // Sends the step and returns its transfers: every edge sends min(left, duration), and
  // an edge within a relative 1e-12 of the duration sends all it has left (so rounding
  // leaves no crumbs). Edges that are done leave live().
  std::vector<Transfer> apply(const CandidateStep& step);

 private:
  void refresh_bound();

  int k_;
  double beta_;
  int senders_;
  std::vector<LiveEdge> edges_;
  std::vector<int> live_;
  std::vector<int> degree_;
  std::vector<double> load_;
  double total_ = 0;  // P of the remainder
  double eta_d_ = 0;
  long eta_s_ = 0;
  // Scratch for eta_after (no allocation per candidate).
  mutable std::vector<double> sent_;
  mutable std::vector<char> ended_;
};

}  // namespace baton::schedule::kpbs
