// The exact KPBS solver (kpbs_exact/exact.h) against the papers, the lower
// bound, the heuristics it must never lose to, and an independent brute force.
#include "coordinator/schedule/kpbs_exact/exact.h"
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/validator.h"
#include "coordinator/schedule/kpbs_exact/valid_matchings.h"
#include "random_problems.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace kpbs = baton::schedule::kpbs;
namespace kpbs_exact = baton::schedule::kpbs_exact;

namespace {

// Brute force, sharing nothing with the solver: every set S of at most m valid matchings
// (m = number of edges; an optimal schedule needs no more, as a basic optimal solution of
// the covering LP below has at most m nonzero durations), with durations from
//   min Σ_{M∈S} d_M  s.t.  Σ_{M∈S, M∋e} d_M ≥ w_e,  d ≥ 0,
// solved by enumerating the LP's vertices; the optimum is min over S of β|S| + LP(S).
class BruteForce {
 public:
  explicit BruteForce(const kpbs::Problem& p) : beta_(p.beta) {
    for (std::size_t i = 0; i < p.times.senders(); ++i) {
      for (std::size_t j = 0; j < p.times.receivers(); ++j) {
        if (p.times.at(i, j) > 0) {
          ends_.emplace_back(i, j);
          w_.push_back(p.times.at(i, j));
        }
      }
    }
    const std::size_t m = w_.size();
    for (std::uint32_t mask = 1; mask < (1u << m); ++mask) {
      if (is_valid(mask, p.k)) matchings_.push_back(mask);
    }
  }

  double optimum() {
    best_ = std::numeric_limits<double>::infinity();
    if (w_.empty()) return 0;
    std::vector<std::uint32_t> chosen;
    choose(0, chosen);
    return best_;
  }

 private:
  bool is_valid(std::uint32_t mask, int k) const {
    std::vector<std::size_t> rows, cols;
    for (std::size_t e = 0; e < w_.size(); ++e) {
      if (!(mask >> e & 1)) continue;
      for (std::size_t r : rows)
        if (r == ends_[e].first) return false;
      for (std::size_t c : cols)
        if (c == ends_[e].second) return false;
      rows.push_back(ends_[e].first);
      cols.push_back(ends_[e].second);
    }
    return static_cast<int>(rows.size()) <= k;
  }

  void choose(std::size_t from, std::vector<std::uint32_t>& chosen) {
    if (!chosen.empty()) best_ = std::min(best_, beta_ * static_cast<double>(chosen.size()) + lp(chosen));
    if (chosen.size() == w_.size()) return;
    for (std::size_t j = from; j < matchings_.size(); ++j) {
      chosen.push_back(matchings_[j]);
      choose(j + 1, chosen);
      chosen.pop_back();
    }
  }

  // Vertex enumeration: s = |S| variables, constraints "cover e" (m of them) and
  // "d_M = 0" (s of them); every vertex makes s of them tight.
  double lp(const std::vector<std::uint32_t>& s) const {
    const std::size_t n = s.size(), m = w_.size(), rows = m + n;
    double best = std::numeric_limits<double>::infinity();
    std::vector<std::size_t> pick;
    const auto row = [&](std::size_t r, std::vector<double>& a, double& b) {
      a.assign(n, 0.0);
      if (r < m) {
        for (std::size_t j = 0; j < n; ++j) a[j] = (s[j] >> r & 1) ? 1.0 : 0.0;
        b = w_[r];
      } else {
        a[r - m] = 1.0;
        b = 0;
      }
    };
    // All n-subsets of the rows, by recursion.
    std::vector<std::size_t> idx;
    const auto solve = [&](const std::vector<std::size_t>& tight) {
      std::vector<std::vector<double>> a(n, std::vector<double>(n + 1));
      for (std::size_t q = 0; q < n; ++q) {
        std::vector<double> coef;
        double b = 0;
        row(tight[q], coef, b);
        for (std::size_t j = 0; j < n; ++j) a[q][j] = coef[j];
        a[q][n] = b;
      }
      for (std::size_t c = 0; c < n; ++c) {  // Gauss–Jordan with partial pivoting
        std::size_t pivot = c;
        for (std::size_t r = c + 1; r < n; ++r) {
          if (std::fabs(a[r][c]) > std::fabs(a[pivot][c])) pivot = r;
        }
        if (std::fabs(a[pivot][c]) < 1e-12) return;  // singular: not a vertex
        std::swap(a[c], a[pivot]);
        for (std::size_t r = 0; r < n; ++r) {
          if (r == c) continue;
          const double f = a[r][c] / a[c][c];
          for (std::size_t j = c; j <= n; ++j) a[r][j] -= f * a[c][j];
        }
      }
      std::vector<double> d(n);
      double total = 0;
      for (std::size_t j = 0; j < n; ++j) {
        d[j] = a[j][n] / a[j][j];
        if (d[j] < -1e-9) return;
        total += d[j];
      }
      for (std::size_t e = 0; e < m; ++e) {
        double covered = 0;
        for (std::size_t j = 0; j < n; ++j) covered += (s[j] >> e & 1) ? d[j] : 0.0;
        if (covered < w_[e] - 1e-9) return;
      }
      best = std::min(best, total);
    };
    const auto subsets = [&](auto&& self, std::size_t start) -> void {
      if (idx.size() == n) {
        solve(idx);
        return;
      }
      for (std::size_t r = start; r < rows; ++r) {
        idx.push_back(r);
        self(self, r + 1);
        idx.pop_back();
      }
    };
    subsets(subsets, 0);
    return best;
  }

  double beta_;
  std::vector<std::pair<std::size_t, std::size_t>> ends_;
  std::vector<double> w_;
  std::vector<std::uint32_t> matchings_;
  double best_ = 0;
};

kpbs::Problem short_paper_example() {
  return {kpbs::Matrix{{3, 2, 0, 0}, {2, 0, 2, 0}, {0, 0, 4, 2}, {0, 1.5, 1, 1}}, 4, 3.0};
}

void check_result(const kpbs::Problem& p, const kpbs_exact::ExactResult& r) {
  const kpbs::Validation v = kpbs::validate(p.times, p.k, p.beta, r.schedule);
  BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
  BOOST_TEST(v.cost == r.cost, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(r.lower_bound >= kpbs::lower_bound(p).eta * (1 - 1e-12));  // never below η
  BOOST_TEST(r.lower_bound <= r.cost * (1 + 1e-12));
  if (r.status == kpbs_exact::ExactStatus::optimal) BOOST_TEST(r.lower_bound == r.cost);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(exact)

// The short paper, Section 1.2: the schedule of cost 16 meets η, so 16 is the
// optimum; OGGP needs 22.
BOOST_AUTO_TEST_CASE(short_paper_example_optimum_is_sixteen) {
  const kpbs::Problem p = short_paper_example();
  const kpbs_exact::ExactResult r = kpbs_exact::solve_exact(p);
  BOOST_TEST((r.status == kpbs_exact::ExactStatus::optimal));
  BOOST_TEST(r.cost == 16.0, boost::test_tools::tolerance(1e-9));
  check_result(p, r);
}

// The short paper's Section 2.3 / the kpbs paper's Fig. 7: GGP's cost 4 is η, so optimal.
BOOST_AUTO_TEST_CASE(ggp_walkthrough_optimum_is_four) {
  const kpbs::Problem p{kpbs::Matrix{{2, 0, 0, 0}, {0, 1, 1, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}, 3, 1.0};
  const kpbs_exact::ExactResult r = kpbs_exact::solve_exact(p, {.start = kpbs::plan(p, kpbs::Algorithm::ggp)});
  BOOST_TEST((r.status == kpbs_exact::ExactStatus::optimal));
  BOOST_TEST(r.cost == 4.0, boost::test_tools::tolerance(1e-9));
  check_result(p, r);
}

// Theorem 1's reduction from 3-Partition with k = 2, m = 2 sets of target 13 (items in
// (13/4, 13/2) as 3-Partition requires): the KPBS instance costs B = a(U) + 3m exactly
// when the items split into triples of sum 13.
BOOST_AUTO_TEST_CASE(three_partition_reduction_costs_b_exactly_for_yes_instances) {
  const auto instance = [](const std::vector<double>& items) {
    kpbs::Matrix m(8, 2);  // senders v1..v6, x1, x2; receivers g, h
    for (std::size_t i = 0; i < 6; ++i) m.at(i, 0) = items[i];
    m.at(6, 1) = m.at(7, 1) = 13;
    return kpbs::Problem{m, 2, 1.0};
  };
  const kpbs::Problem yes = instance({4, 4, 5, 4, 4, 5});  // {4,4,5} twice
  const kpbs::Problem no = instance({4, 4, 4, 4, 4, 6});   // 12 or 14, never 13
  const kpbs_exact::ExactResult ry = kpbs_exact::solve_exact(yes), rn = kpbs_exact::solve_exact(no);
  BOOST_TEST_REQUIRE((ry.status == kpbs_exact::ExactStatus::optimal && rn.status == kpbs_exact::ExactStatus::optimal));
  BOOST_TEST(ry.cost == 32.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(rn.cost > 32.0 + 1e-6);
  check_result(yes, ry);
  check_result(no, rn);
}

BOOST_AUTO_TEST_CASE(agrees_with_brute_force_on_tiny_instances) {
  std::mt19937_64 rng(31);
  const kpbs::test::Shape shapes[] = {
      {"whole weights", 3, 0.5, 1, 6, true, 0, 1},
      {"around beta", 3, 0.6, 0.2, 2.5, false, 0, 1},
      {"beta 2", 3, 0.6, 0.5, 5, false, 0, 2},
  };
  int compared = 0;
  for (const auto& shape : shapes) {
    for (int n = 0; n < 40; ++n) {
      const kpbs::Problem p = kpbs::test::random_problem(rng, shape);
      if (kpbs_exact::edge_list(p).ends.size() > 4) continue;
      BOOST_TEST_CONTEXT(shape.name << " #" << n << " k = " << p.k) {
        const kpbs_exact::ExactResult r = kpbs_exact::solve_exact(p);
        BOOST_TEST((r.status == kpbs_exact::ExactStatus::optimal));
        BOOST_TEST(r.cost == BruteForce(p).optimum(), boost::test_tools::tolerance(1e-7));
        check_result(p, r);
        ++compared;
      }
    }
  }
  BOOST_TEST(compared > 60);
}

// Never below η, never above the heuristics (OGGP, and OGGP+ which it starts from).
BOOST_AUTO_TEST_CASE(between_eta_and_the_heuristics_on_small_instances) {
  std::mt19937_64 rng(32);
  const kpbs::test::Shape shape{"small", 4, 0.5, 1, 20, true};
  for (int n = 0; n < 40; ++n) {
    const kpbs::Problem p = kpbs::test::random_problem(rng, shape);
    if (kpbs_exact::edge_list(p).ends.size() > 9) continue;
    BOOST_TEST_CONTEXT("#" << n) {
      const kpbs_exact::ExactResult r = kpbs_exact::solve_exact(p, {.time_limit_seconds = 5});
      check_result(p, r);
      for (kpbs::Algorithm a : {kpbs::Algorithm::ggp, kpbs::Algorithm::oggp, kpbs::Algorithm::oggp_plus}) {
        BOOST_TEST(r.cost <= kpbs::cost(kpbs::plan(p, a), p.beta) * (1 + 1e-12));
      }
    }
  }
}

// Times far below β and far above it: GLPK's absolute tolerances must not leave an edge
// unsent (the answer is validated, and replaced by the start plan if it fails).
BOOST_AUTO_TEST_CASE(valid_plans_for_extreme_times) {
  std::mt19937_64 rng(33);
  const kpbs::test::Shape shapes[] = {
      {"tiny weights", 3, 0.6, 1e-9, 1e-6, false, 0, 1e-3},
      {"below beta", 3, 0.6, 1e-6, 1e-3, false, 0, 1},
      {"huge weights", 3, 0.6, 1e6, 4e9, true, 0, 1},
  };
  for (const auto& shape : shapes) {
    for (int n = 0; n < 15; ++n) {
      const kpbs::Problem p = kpbs::test::random_problem(rng, shape);
      BOOST_TEST_CONTEXT(shape.name << " #" << n) { check_result(p, kpbs_exact::solve_exact(p)); }
    }
  }
}

BOOST_AUTO_TEST_CASE(time_limit_gives_a_valid_plan_and_a_bound) {
  // 5 × 5 with 14 edges and k = 3: far more than a millisecond of search.
  const kpbs::Problem p{
      kpbs::Matrix{{7, 3, 0, 12, 5}, {0, 9, 4, 0, 11}, {6, 0, 8, 2, 0}, {13, 0, 0, 5, 1}, {0, 10, 3, 0, 0}}, 3, 1.0};
  const kpbs_exact::ExactResult r = kpbs_exact::solve_exact(p, {.time_limit_seconds = 0.001});
  check_result(p, r);
  BOOST_TEST((r.status == kpbs_exact::ExactStatus::time_limit));
  BOOST_TEST(r.gap() >= 0);
}

BOOST_AUTO_TEST_CASE(refuses_instances_over_its_caps) {
  kpbs::Problem p{kpbs::Matrix(6, 6), 3, 1.0};
  for (std::size_t i = 0; i < 6; ++i) {
    for (std::size_t j = 0; j < 6; ++j) p.times.at(i, j) = 1;
  }
  const kpbs_exact::ExactResult r = kpbs_exact::solve_exact(p);  // 36 edges > max_edges
  BOOST_TEST((r.status == kpbs_exact::ExactStatus::too_large));
  BOOST_TEST(r.schedule.steps.empty());
  BOOST_TEST(!kpbs_exact::maximal_valid_matchings(p, 100).has_value());  // C(6,3)²·3! = 2400 > 100
}

BOOST_AUTO_TEST_CASE(maximal_valid_matchings_of_a_small_graph) {
  // Edges (row-major): a = 0→0, b = 0→1, c = 1→0, d = 1→1: a 4-cycle. With k = 2 the
  // maximal valid matchings are {a, d} and {b, c}; with k = 1 every single edge.
  const kpbs::Problem p{kpbs::Matrix{{1, 1}, {1, 1}}, 2, 1.0};
  auto two = kpbs_exact::maximal_valid_matchings(p, 100);
  BOOST_TEST_REQUIRE(two.has_value());
  std::sort(two->begin(), two->end());
  BOOST_TEST((*two == std::vector<std::uint64_t>{0b0110, 0b1001}));
  auto one = kpbs_exact::maximal_valid_matchings({p.times, 1, 1.0}, 100);
  BOOST_TEST_REQUIRE(one.has_value());
  BOOST_TEST(one->size() == 4u);
  BOOST_TEST(kpbs_exact::first_superset(*two, 0b0010) >= 0);
  BOOST_TEST(kpbs_exact::first_superset(*two, 0b0011) == -1);  // a and b share sender 0
}

BOOST_AUTO_TEST_CASE(nothing_to_send_is_optimal_with_no_step) {
  const kpbs_exact::ExactResult r = kpbs_exact::solve_exact({kpbs::Matrix(2, 3), 2, 1.0});
  BOOST_TEST((r.status == kpbs_exact::ExactStatus::optimal));
  BOOST_TEST(r.schedule.steps.empty());
  BOOST_TEST(r.cost == 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
