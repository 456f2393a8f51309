// An exact KPBS solver for small instances: the optimum, or when the time limit hits the
// best plan found with the solver's proven lower bound, so benchmarks can say how far an
// algorithm is from the optimum and not only from η.
//
// Integer program over the maximal valid matchings M (valid_matchings.h), in units of β:
//   minimize   Σ_M (y_M + d_M)
//   subject to Σ_{M∋e} x_{M,e} ≥ w_e        for every edge e    (each edge is sent)
//              x_{M,e} ≤ d_M                 for every e ∈ M     (a step lasts its longest transfer)
//              x_{M,e} ≤ w_e · y_M           for every e ∈ M     (only chosen steps send)
//              Σ_{M∋e} y_M ≥ 1               for every edge e    (implied; tightens the relaxation)
//              Σ_M y_M ≥ η_s                                      (Proposition 1; the same)
//              y_M ∈ {0, 1}, x, d ≥ 0
// A step is a matching M used for a duration d_M, sending x_{M,e} of edge e. Using a
// matching twice never helps (one step of the summed duration saves a β), so y_M says
// whether M is a step. Every schedule maps to a solution of no greater cost (extend each
// step to a maximal valid matching, merge repeats) and every solution maps back to a
// schedule of no greater cost (solve_exact's to_schedule), so the optimum of the program
// is the optimum of KPBS. The per-edge amounts x (rather than one d_M ≤ U_M·y_M per
// matching) make the relaxation much tighter: a step that sends an edge whole costs a
// whole y_M. Solved with GLPK's branch and cut (glp_intopt), started from a given plan.
#pragma once

#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/schedule.h"

#include <cstddef>
#include <optional>

namespace baton::schedule::kpbs_exact {

struct ExactOptions {
  double time_limit_seconds = 10;     // GLPK's tm_lim
  std::size_t max_edges = 24;         // larger instances are refused (too_large)
  std::size_t max_matchings = 20000;  // more maximal valid matchings: refused (too_large)
  // A valid plan to start from (the solver's first incumbent, so the answer is never
  // worse than it). Default: oggp_plus's plan.
  std::optional<kpbs::Schedule> start = std::nullopt;
};

enum class ExactStatus {
  optimal,     // proven optimal (within GLPK's tolerances)
  time_limit,  // the limit hit: best plan found, with the solver's bound (or η alone
               // when GLPK's answer failed the validator: times far below its 1e-7)
  too_large,   // refused: more edges or matchings than the options allow; no plan
};

struct ExactResult {
  ExactStatus status = ExactStatus::too_large;
  kpbs::Schedule schedule;    // valid for the problem (empty when too_large)
  double cost = 0;            // Σ (β + duration) of `schedule`
  double lower_bound = 0;     // max(η, the solver's bound); == cost when optimal
  std::size_t matchings = 0;  // columns of the program
  double gap() const { return lower_bound > 0 ? cost / lower_bound - 1 : 0; }
};

ExactResult solve_exact(const kpbs::Problem& problem, const ExactOptions& options = {});

}  // namespace baton::schedule::kpbs_exact
