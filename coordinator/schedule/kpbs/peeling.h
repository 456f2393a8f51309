// Peeling (kpbs paper, Fig. 5 steps 4–6, and the short paper's step 7): take perfect
// matchings off the weight-regular graph J until it is empty, then turn the matchings
// into steps of real transfers.
#pragma once

#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/regular_extension.h"
#include "coordinator/schedule/kpbs/schedule.h"
#include "error/error.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace baton::schedule::kpbs {

// Which perfect matching each peeling step takes.
enum class MatchingChoice {
  any,             // GGP: whichever perfect matching the repair finds
  max_min_weight,  // OGGP: the perfect matching whose lightest edge is heaviest (Fig. 9)
};

struct PeelOptions {
  // Repair the previous step's matching (true) or find each matching from scratch with
  // Hopcroft–Karp (and, for OGGP, a binary search on the threshold). Both give a valid
  // matching of the same kind; the from-scratch path is there to be measured against.
  bool incremental = true;
  // Asked before every peeling step with the number of steps done; returning false stops
  // the peel with PeelInterrupted. Lets a benchmark cap a slow variant's time.
  std::function<bool(std::size_t steps_done)> keep_going = {};
};

struct PeelInterrupted : public error::Error {
  explicit PeelInterrupted(std::size_t steps) : error::Error("peeling interrupted"), steps_done(steps) {}
  std::size_t steps_done;
};

struct PeeledMatching {
  double units = 0;            // s(M): the weight every edge of the step gets (Fig. 5, 5.2)
  std::vector<int> transfers;  // origins of the real edges in M (virtual ones dropped, step 6)
};

class Matching;

// Fig. 5 step 5.1: makes `m` a perfect matching of `graph` of the chosen kind. With
// options.incremental, `m` must hold the previous step's surviving edges, `freed` the
// left vertices that lost theirs and `hint` the previous step's lightest weight (infinity
// at the first step); otherwise `m` is rebuilt from nothing.
void find_perfect_matching(Matching& m, const BipartiteGraph& graph, const std::vector<int>& freed,
                           MatchingChoice choice, const PeelOptions& options, double hint);

// Peels `graph.j` (which it empties) and returns the matchings in peeling order.
std::vector<PeeledMatching> peel(ExtendedGraph& graph, MatchingChoice choice, const PeelOptions& options = {});

// The short paper's step 7: a step gives each of its edges min(s·β, what is left of it).
// The last piece of an edge carries exactly what is left, so amounts add up to the matrix.
Schedule to_schedule(const std::vector<PeeledMatching>& matchings, const ExtendedGraph& graph, const Problem& problem);

}  // namespace baton::schedule::kpbs
