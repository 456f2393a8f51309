// OGGP+ (oggp_plus.h): never worse than OGGP, OGGP's plan where OGGP is within
// kGoodEnough of η, and better than OGGP on the paper's small-weight setting.
#include "coordinator/schedule/kpbs/oggp_plus.h"
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/oggp.h"
#include "coordinator/schedule/kpbs/platform.h"
#include "coordinator/schedule/kpbs/validator.h"
#include "random_problems.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>

namespace kpbs = baton::schedule::kpbs;

namespace {

bool same_plan(const kpbs::Schedule& a, const kpbs::Schedule& b) {
  if (a.steps.size() != b.steps.size()) return false;
  for (std::size_t s = 0; s < a.steps.size(); ++s) {
    const auto& x = a.steps[s].transfers;
    const auto& y = b.steps[s].transfers;
    if (x.size() != y.size()) return false;
    for (std::size_t t = 0; t < x.size(); ++t) {
      if (x[t].src != y[t].src || x[t].dst != y[t].dst || x[t].amount != y[t].amount) return false;
    }
  }
  return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(oggp_plus)

BOOST_AUTO_TEST_CASE(valid_and_never_worse_than_oggp) {
  std::mt19937_64 rng(21);
  int better = 0;
  for (const auto& shape : kpbs::test::kRandomShapes) {
    for (int n = 0; n < 120; ++n) {
      const kpbs::Problem p = kpbs::test::random_problem(rng, shape);
      BOOST_TEST_CONTEXT(shape.name << " #" << n) {
        const kpbs::Validation plus = kpbs::validate(p.times, p.k, p.beta, kpbs::plan(p, kpbs::Algorithm::oggp_plus));
        const kpbs::Validation oggp = kpbs::validate(p.times, p.k, p.beta, kpbs::oggp(p));
        BOOST_TEST(plus.ok(), (plus.ok() ? "" : plus.errors.front()));
        BOOST_TEST(plus.cost <= oggp.cost);
        BOOST_TEST(plus.cost >= kpbs::lower_bound(p).eta * (1 - 1e-12));
        BOOST_TEST(plus.cost <= 8.0 / 3.0 * kpbs::lower_bound(p).eta * (1 + 1e-12));  // inherited
        better += plus.cost < oggp.cost ? 1 : 0;
      }
    }
  }
  BOOST_TEST(better > 200);  // it does more than fall back
}

// At least as good as each plan it is made of: OGGP, each variant of kVariants, kFallback
// where no variant beat OGGP, and the look-ahead's plans where it runs.
BOOST_AUTO_TEST_CASE(no_worse_than_any_of_its_parts) {
  std::mt19937_64 rng(24);
  int fell_back = 0, looked_ahead = 0;
  for (int n = 0; n < 300; ++n) {
    const kpbs::Problem p = kpbs::test::random_problem(rng, kpbs::test::kRandomShapes[n % 8]);
    const double plus = kpbs::cost(kpbs::oggp_plus(p), p.beta), oggp = kpbs::cost(kpbs::oggp(p), p.beta);
    const double eta = kpbs::lower_bound(p).eta;
    if (oggp <= eta * (1 + kpbs::kGoodEnough)) continue;
    bool beaten = false;
    double before_look_ahead = oggp;
    for (const auto& variant : kpbs::kVariants) {
      const double c = kpbs::cost(*kpbs::waste_greedy(p, variant), p.beta);
      BOOST_TEST(plus <= c);
      beaten = beaten || c < oggp;
      before_look_ahead = std::min(before_look_ahead, c);
    }
    if (!beaten) {
      const double c = kpbs::cost(*kpbs::waste_greedy(p, kpbs::kFallback), p.beta);
      BOOST_TEST(plus <= c);
      before_look_ahead = std::min(before_look_ahead, c);
      ++fell_back;
    }
    if (p.k > kpbs::kLookAheadMaxK || before_look_ahead <= eta * (1 + kpbs::kLookAheadAbove)) continue;
    for (int rank = 1; rank <= kpbs::kLookAheadRanks; ++rank) {
      kpbs::WasteGreedyOptions variant = kpbs::kLookAhead;
      variant.first_step_rank = rank;
      if (const auto s = kpbs::waste_greedy(p, variant)) {
        BOOST_TEST(plus <= kpbs::cost(*s, p.beta));
        ++looked_ahead;
      }
    }
  }
  BOOST_TEST(fell_back > 0);
  BOOST_TEST(looked_ahead > 0);
}

// The worst graphs of the Section 8 benchmark (bench/kpbs_optimality, 100 graphs per k,
// small weights) at k = 2 and 3 before the look-ahead over the first step: OGGP+ was at
// 65 (η 61, OGGP 66; optimum 63 by the exact solver) and 57 (η 52, OGGP 58). The issue's
// target: cut OGGP's excess over η by at least 25 % on the worst case.
BOOST_AUTO_TEST_CASE(worst_benchmark_graphs_at_small_k_cut_oggps_excess_by_a_quarter) {
  struct Entry {
    std::size_t sender, receiver;
    double time;
  };
  const auto graph = [](int k, std::initializer_list<Entry> entries) {
    kpbs::Problem p{kpbs::Matrix(20, 20), k, 1.0};
    for (const Entry& e : entries) p.times.at(e.sender, e.receiver) = e.time;
    return p;
  };
  // (sender, receiver, time) triples, laid out as a table.
  // clang-format off
  const kpbs::Problem graphs[] = {
      graph(2, {{0, 13, 17}, {1, 8, 8}, {4, 1, 6}, {8, 12, 16}, {9, 3, 4}, {10, 4, 8}, {11, 8, 8}, {14, 4, 7},
                {14, 6, 16}, {14, 7, 2}, {14, 14, 1}, {17, 5, 2}, {17, 9, 11}, {18, 13, 2}}),
      graph(3, {{3, 13, 9}, {4, 14, 18}, {4, 18, 6}, {6, 19, 4}, {9, 4, 4}, {9, 15, 15}, {10, 5, 12}, {11, 5, 5},
                {11, 8, 11}, {15, 13, 20}, {16, 2, 5}, {16, 15, 14}, {16, 19, 12}, {18, 15, 6}}),
  };
  // clang-format on
  for (const kpbs::Problem& p : graphs) {
    BOOST_TEST_CONTEXT("k = " << p.k) {
      const double eta = kpbs::lower_bound(p).eta;
      const kpbs::Validation oggp = kpbs::validate(p.times, p.k, p.beta, kpbs::oggp(p));
      const kpbs::Validation plus = kpbs::validate(p.times, p.k, p.beta, kpbs::oggp_plus(p));
      BOOST_TEST(plus.ok(), (plus.ok() ? "" : plus.errors.front()));
      BOOST_TEST(plus.cost - eta <= 0.75 * (oggp.cost - eta));
    }
  }
}

BOOST_AUTO_TEST_CASE(keeps_oggps_plan_when_oggp_is_within_good_enough_of_eta) {
  std::mt19937_64 rng(22);
  int kept = 0;
  for (int n = 0; n < 100; ++n) {
    const kpbs::Problem p = kpbs::test::random_problem(rng, kpbs::test::kRandomShapes[1]);  // weights up to 10^5 β
    const kpbs::Schedule oggp = kpbs::oggp(p);
    if (kpbs::cost(oggp, p.beta) > kpbs::lower_bound(p).eta * (1 + kpbs::kGoodEnough)) continue;
    BOOST_TEST(same_plan(kpbs::oggp_plus(p), oggp));
    ++kept;
  }
  BOOST_TEST(kept > 50);
}

// Graphs like the kpbs paper's Section 8 (20×20, weights 1..20, β = 1), a few at k = 10:
// OGGP+ cuts OGGP's mean excess over η by at least 30 % here (a guard against
// regressions; bench/kpbs_optimality measures the cut on many more graphs).
BOOST_AUTO_TEST_CASE(cuts_oggps_excess_on_small_weights) {
  std::mt19937_64 rng(23);
  double oggp_excess = 0, plus_excess = 0;
  for (int n = 0; n < 12; ++n) {
    kpbs::Problem p{kpbs::Matrix(20, 20), 10, 1.0};
    std::uniform_int_distribution<int> weight(1, 20);
    std::bernoulli_distribution edge(0.5);
    for (std::size_t i = 0; i < 20; ++i) {
      for (std::size_t j = 0; j < 20; ++j) p.times.at(i, j) = edge(rng) ? weight(rng) : 0;
    }
    const double eta = kpbs::lower_bound(p).eta;
    oggp_excess += kpbs::cost(kpbs::oggp(p), p.beta) / eta - 1;
    plus_excess += kpbs::cost(kpbs::oggp_plus(p), p.beta) / eta - 1;
  }
  BOOST_TEST(plus_excess <= 0.7 * oggp_excess);
}

BOOST_AUTO_TEST_CASE(short_paper_example_is_solved_optimally) {
  const kpbs::Problem p{kpbs::Matrix{{3, 2, 0, 0}, {2, 0, 2, 0}, {0, 0, 4, 2}, {0, 1.5, 1, 1}}, 4, 3.0};
  BOOST_TEST(kpbs::cost(kpbs::oggp(p), p.beta) == 22.0);
  BOOST_TEST(kpbs::cost(kpbs::oggp_plus(p), p.beta) == 16.0);  // η, so optimal
}

// The same example in platform form (10 MB/s nodes, a 40 MB/s backbone, 3 s steps): the
// plan in whole bytes still costs 16 s.
BOOST_AUTO_TEST_CASE(short_paper_example_in_platform_form) {
  kpbs::PlatformProblem pp;
  pp.platform = {10e6, 10e6, 40e6, 3.0, {}, {}};
  pp.bytes = kpbs::Matrix{{30e6, 20e6, 0, 0}, {20e6, 0, 20e6, 0}, {0, 0, 40e6, 20e6}, {0, 15e6, 10e6, 10e6}};
  const kpbs::Problem p = kpbs::normalize(pp);
  const kpbs::Schedule in_bytes = kpbs::to_bytes(kpbs::plan(p, kpbs::Algorithm::oggp_plus), pp);
  const kpbs::Validation v = kpbs::validate(pp.bytes, p.k, p.beta, in_bytes, {.rate = 10e6});
  BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
  BOOST_TEST(v.cost == 16.0, boost::test_tools::tolerance(1e-9));
  for (const auto& step : in_bytes.steps) {
    for (const auto& t : step.transfers) BOOST_TEST(t.amount == std::floor(t.amount));
  }
}

BOOST_AUTO_TEST_CASE(registered_under_its_name) {
  BOOST_TEST(kpbs::name(kpbs::Algorithm::oggp_plus) == "oggp-plus");
  BOOST_TEST((kpbs::parse_algorithm("oggp-plus") == kpbs::Algorithm::oggp_plus));
  BOOST_TEST(kpbs::obeys_kpbs(kpbs::Algorithm::oggp_plus));
}

BOOST_AUTO_TEST_SUITE_END()
