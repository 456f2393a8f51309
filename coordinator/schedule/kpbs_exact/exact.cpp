#include "coordinator/schedule/kpbs_exact/exact.h"

#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/oggp_plus.h"
#include "coordinator/schedule/kpbs/validator.h"
#include "coordinator/schedule/kpbs_exact/valid_matchings.h"
#include "error/error.h"

#include <glpk.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

namespace baton::schedule::kpbs_exact {
namespace {

using kpbs::Schedule;
using kpbs::Step;
using kpbs::Transfer;

struct ProblemDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};
using GlpkProblem = std::unique_ptr<glp_prob, ProblemDeleter>;

// Columns: y_M and d_M for every matching, then x_{M,e} for every edge e of every M.
// GLPK counts rows and columns from 1.
struct Layout {
  std::size_t matchings = 0;
  std::vector<int> first_x;  // column of x_{M,e} for the lowest edge e of M, per M
  int y(std::size_t j) const { return static_cast<int>(2 * j + 1); }
  int d(std::size_t j) const { return static_cast<int>(2 * j + 2); }
};

struct Program {
  EdgeList edges;
  std::vector<std::uint64_t> matchings;
  std::vector<double> units;  // w_e / β
  Layout layout;
};

GlpkProblem build(Program& p, long eta_s) {
  GlpkProblem lp(glp_create_prob());
  glp_set_obj_dir(lp.get(), GLP_MIN);
  const std::size_t m = p.edges.ends.size(), n = p.matchings.size();
  Layout& at = p.layout;
  at.matchings = n;
  int columns = static_cast<int>(2 * n);
  for (std::size_t j = 0; j < n; ++j) {
    at.first_x.push_back(columns + 1);
    columns += std::popcount(p.matchings[j]);
  }
  glp_add_cols(lp.get(), columns);
  for (int c = 1; c <= columns; ++c) glp_set_col_bnds(lp.get(), c, GLP_LO, 0.0, 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    glp_set_col_kind(lp.get(), at.y(j), GLP_BV);
    glp_set_obj_coef(lp.get(), at.y(j), 1.0);
    glp_set_obj_coef(lp.get(), at.d(j), 1.0);
  }
  std::vector<int> ia{0}, ja{0};
  std::vector<double> ar{0.0};
  int rows = 0;
  const auto new_row = [&](int type, double bound) {
    glp_add_rows(lp.get(), 1);
    ++rows;
    glp_set_row_bnds(lp.get(), rows, type, type == GLP_LO ? bound : 0.0, type == GLP_UP ? bound : 0.0);
    return rows;
  };
  const auto put = [&](int row, int col, double value) {
    ia.push_back(row);
    ja.push_back(col);
    ar.push_back(value);
  };
  std::vector<int> cover(m), use(m);
  for (std::size_t e = 0; e < m; ++e) {
    cover[e] = new_row(GLP_LO, p.units[e]);  // Σ_{M∋e} x_{M,e} ≥ w_e
    use[e] = new_row(GLP_LO, 1.0);           // Σ_{M∋e} y_M ≥ 1
  }
  for (std::size_t j = 0; j < n; ++j) {
    int x = at.first_x[j];
    for (std::size_t e = 0; e < m; ++e) {
      if (!(p.matchings[j] >> e & 1)) continue;
      put(cover[e], x, 1.0);
      put(use[e], at.y(j), 1.0);
      const int within = new_row(GLP_UP, 0.0);  // x_{M,e} ≤ d_M
      put(within, x, 1.0);
      put(within, at.d(j), -1.0);
      const int link = new_row(GLP_UP, 0.0);  // x_{M,e} ≤ w_e y_M
      put(link, x, 1.0);
      put(link, at.y(j), -p.units[e]);
      ++x;
    }
  }
  const int steps = new_row(GLP_LO, static_cast<double>(eta_s));  // Σ y_M ≥ η_s
  for (std::size_t j = 0; j < n; ++j) put(steps, at.y(j), 1.0);
  glp_load_matrix(lp.get(), static_cast<int>(ia.size() - 1), ia.data(), ja.data(), ar.data());
  return lp;
}

// The start plan as values of the columns (index 0 unused, as GLPK wants): every step on
// a maximal matching holding it, repeats merged, each edge's amounts summed on its x.
std::vector<double> start_values(const Program& p, const Schedule& start, double beta, int columns) {
  std::vector<double> x(static_cast<std::size_t>(columns) + 1, 0.0);
  const auto at = [&x](int column) -> double& { return x[static_cast<std::size_t>(column)]; };
  for (const Step& step : start.steps) {
    std::uint64_t mask = 0;
    for (const Transfer& t : step.transfers) {
      const auto it = std::find(p.edges.ends.begin(), p.edges.ends.end(), std::make_pair(t.src, t.dst));
      if (it == p.edges.ends.end()) throw error::Bug("exact: the start plan sends on a pair with no data");
      mask |= std::uint64_t{1} << (it - p.edges.ends.begin());
    }
    const int j = first_superset(p.matchings, mask);
    if (j < 0) throw error::Bug("exact: the start plan has a step that is not a valid matching");
    const auto jj = static_cast<std::size_t>(j);
    at(p.layout.y(jj)) = 1;
    for (const Transfer& t : step.transfers) {
      const auto e = static_cast<std::size_t>(
          std::find(p.edges.ends.begin(), p.edges.ends.end(), std::make_pair(t.src, t.dst)) - p.edges.ends.begin());
      const int column = p.layout.first_x[jj] + std::popcount(p.matchings[jj] & ((std::uint64_t{1} << e) - 1));
      at(column) = std::min(p.units[e], at(column) + t.amount / beta);
      at(p.layout.d(jj)) = std::max(at(p.layout.d(jj)), at(column));
    }
  }
  return x;
}

struct Search {
  const std::vector<double>* start = nullptr;
  bool start_given = false;
  double bound = -std::numeric_limits<double>::infinity();  // best proven, in units of β
};

// GLPK's callback: offers the start plan once, and records the best bound of the open
// nodes (it only grows, so any value seen is a valid lower bound).
void on_event(glp_tree* tree, void* info) {
  auto* search = static_cast<Search*>(info);
  if (glp_ios_reason(tree) == GLP_IHEUR && !search->start_given) {
    search->start_given = true;
    glp_ios_heur_sol(tree, search->start->data());
  }
  const int best = glp_ios_best_node(tree);
  if (best != 0) {
    const double b = glp_ios_node_bound(tree, best);
    if (std::isfinite(b) && b > -1e300) search->bound = std::max(search->bound, b);
  }
}

// Every chosen matching becomes a step of its duration; an edge sends min(d, what it has
// left) in each, and the last step it is in sends all it has left, so the amounts add up
// exactly (GLPK's tolerances may leave a sliver to cover).
Schedule to_schedule(const Program& p, glp_prob* lp, double beta) {
  const std::size_t m = p.edges.ends.size();
  std::vector<std::size_t> chosen;
  for (std::size_t j = 0; j < p.matchings.size(); ++j) {
    if (glp_mip_col_val(lp, p.layout.y(j)) > 0.5 && glp_mip_col_val(lp, p.layout.d(j)) > 1e-9) chosen.push_back(j);
  }
  std::vector<double> left = p.edges.times;
  std::vector<std::size_t> last(m, 0);
  for (std::size_t c = 0; c < chosen.size(); ++c) {
    for (std::size_t e = 0; e < m; ++e) {
      if (p.matchings[chosen[c]] >> e & 1) last[e] = c;
    }
  }
  Schedule schedule;
  for (std::size_t c = 0; c < chosen.size(); ++c) {
    const double duration = glp_mip_col_val(lp, p.layout.d(chosen[c])) * beta;
    Step step;
    for (std::size_t e = 0; e < m; ++e) {
      if (!(p.matchings[chosen[c]] >> e & 1) || left[e] <= 0) continue;
      const double amount = last[e] == c ? left[e] : std::min(duration, left[e]);
      left[e] -= amount;
      if (amount > 0) step.transfers.push_back(Transfer{p.edges.ends[e].first, p.edges.ends[e].second, amount});
    }
    if (!step.transfers.empty()) schedule.steps.push_back(std::move(step));
  }
  kpbs::set_durations(schedule);
  return schedule;
}

}  // namespace

ExactResult solve_exact(const kpbs::Problem& problem, const ExactOptions& options) {
  kpbs::check(problem);
  ExactResult result;
  Program p;
  p.edges = edge_list(problem);
  if (p.edges.ends.empty()) {
    result.status = ExactStatus::optimal;
    return result;
  }
  if (p.edges.ends.size() > std::min<std::size_t>(options.max_edges, 64)) return result;
  auto matchings = maximal_valid_matchings(problem, options.max_matchings);
  if (!matchings) return result;
  p.matchings = std::move(*matchings);
  for (double w : p.edges.times) p.units.push_back(w / problem.beta);
  result.matchings = p.matchings.size();

  const kpbs::LowerBound eta = kpbs::lower_bound(problem);
  const Schedule start = options.start ? *options.start : kpbs::oggp_plus(problem);
  GlpkProblem lp = build(p, eta.eta_s);
  const std::vector<double> start_x = start_values(p, start, problem.beta, glp_get_num_cols(lp.get()));

  glp_smcp simplex;
  glp_init_smcp(&simplex);
  simplex.msg_lev = GLP_MSG_OFF;
  if (glp_simplex(lp.get(), &simplex) != 0 || glp_get_status(lp.get()) != GLP_OPT) {
    throw error::SystemError("exact: GLPK could not solve the relaxation");
  }
  Search search;
  search.start = &start_x;
  glp_iocp mip;
  glp_init_iocp(&mip);
  mip.msg_lev = GLP_MSG_OFF;
  mip.cb_func = on_event;
  mip.cb_info = &search;
  mip.gmi_cuts = GLP_ON;
  mip.mir_cuts = GLP_ON;
  mip.tm_lim = static_cast<int>(std::clamp(options.time_limit_seconds * 1000, 1.0, 2e9));
  const int code = glp_intopt(lp.get(), &mip);
  const int status = glp_mip_status(lp.get());
  const bool has_plan = status == GLP_OPT || status == GLP_FEAS;

  Schedule plan = has_plan ? to_schedule(p, lp.get(), problem.beta) : start;
  // GLPK works to absolute tolerances (1e-7): with times far below β a solution can leave
  // an edge unsent. Such a plan is not used, and then nothing GLPK said is trusted.
  const bool trusted = kpbs::validate(problem.times, problem.k, problem.beta, plan).ok();
  if (!trusted) plan = start;
  double plan_cost = kpbs::cost(plan, problem.beta);
  const double start_cost = kpbs::cost(start, problem.beta);
  if (start_cost < plan_cost) {  // GLPK may not have taken the start plan as its incumbent
    plan = start;
    plan_cost = start_cost;
  }
  result.schedule = std::move(plan);
  result.cost = plan_cost;
  if (!trusted) {
    result.status = ExactStatus::time_limit;
    result.lower_bound = std::min(result.cost, eta.eta);
  } else if (code == 0 && status == GLP_OPT) {
    result.status = ExactStatus::optimal;
    result.lower_bound = result.cost;
  } else {
    result.status = ExactStatus::time_limit;
    result.lower_bound = std::min(result.cost, std::max(eta.eta, search.bound * problem.beta));
  }
  return result;
}

}  // namespace baton::schedule::kpbs_exact
