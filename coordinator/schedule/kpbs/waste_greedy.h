// Waste-greedy: a KPBS planner that builds the schedule step by step and keeps every
// step as close as it can to the lower bound η (Proposition 1 of the kpbs paper).
//
// After any prefix of a schedule, cost(prefix) + η(what is left) is a lower bound on the
// whole schedule, and the final cost is η(G) plus the growth of that sum over the steps:
// each step's "waste" (remaining_work.h). OGGP keeps the transmission time at η_d but
// ends with about twice η_s steps on weights of a few β; cutting every edge to the same
// length costs a start-up whenever an edge is cut. Waste-greedy instead prices each
// candidate step by what it adds to the bound: a step may let short transfers ride along
// a longer one (idle time that only costs where a vertex or the backbone has no slack
// left) and it is rewarded for ending edges at the vertices that bound the step count.
//
// Each step: for every candidate duration t (the distinct remaining times, at most
// options.durations of them), a matching of at most k edges is built greedily in the order
//   1. edges that end within t at a vertex whose degree is η_s (without one of those
//      the step count bound cannot drop),
//   2. edges at vertices whose load leaves less than t of slack below η_d, by the share
//      of that shortfall they cover (without them the time bound cannot drop by t),
//   3. the time they send, min(left, t) (plus, as an option, a bonus for ending),
//   4. the time they have left (cutting a long edge leaves less of a crumb than cutting
//      one just longer than t), then the lower index,
// where rules 1 and 2 look only at the two longest qualifying edges of each critical
// vertex (the matching takes one edge per vertex anyway; on the Section 8 benchmark this
// was both faster and slightly better than ranking all of them),
// the step lasts its longest transfer, and among the candidates that end at least one
// edge (the longest duration always does) the one with the least waste (or least waste
// per unit of time sent) is taken. A step that ends no edge wastes at least β (neither
// Δ nor ⌈m/k⌉ can drop), and allowing them let the least-waste choice crawl: a string of
// steps as short as some leftover crumb, each cutting the same long edges. Ending an edge
// every step also bounds the plan at m steps. No approximation guarantee: the planner that
// uses it (oggp_plus.h) keeps OGGP's plan whenever that is better.
#pragma once

#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/schedule.h"

#include <limits>
#include <optional>

namespace baton::schedule::kpbs {

enum class StepChoice {
  least_waste,           // the candidate that raises the bound least (ties: most sent)
  least_waste_per_time,  // waste divided by the time the step sends (ties: most sent)
};

struct WasteGreedyOptions {
  StepChoice choice = StepChoice::least_waste;
  // Adds t/(2k) to the priority of an edge that ends in the step, so that steps end more
  // edges when the step-count budget is tight.
  bool favour_ending = false;
  // Gives up (returns nullopt) as soon as cost so far + η(rest) reaches this: the plan
  // could no longer beat a plan of this cost.
  double give_up_at = std::numeric_limits<double>::infinity();
  // How many candidate durations a step tries: the distinct remaining times when there
  // are no more, else that many spread evenly over them in sorted order, both ends kept.
  int durations = 16;
  // Takes the first step this far down the ranking of its candidates (0: the best;
  // candidates with the same matching and duration count once), every later step being
  // the best again: a look-ahead over the first step (oggp_plus.h). Returns nullopt when
  // the first step has no more candidates than that.
  int first_step_rank = 0;
};

std::optional<Schedule> waste_greedy(const Problem& problem, const WasteGreedyOptions& options = {});

}  // namespace baton::schedule::kpbs
