// The worked examples of the two KPBS papers.
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/platform.h"
#include "coordinator/schedule/kpbs/validator.h"

#include <boost/test/unit_test.hpp>

#include <cmath>

namespace kpbs = baton::schedule::kpbs;

namespace {

// The short paper, Figure 2: megabytes between two 4-node clusters, divided by
// the worst bandwidth (10 MB/s) into times; k = 4 and β = 3 (Section 1.2).
kpbs::Problem short_paper_example() {
  return {kpbs::Matrix{{3, 2, 0, 0}, {2, 0, 2, 0}, {0, 0, 4, 2}, {0, 1.5, 1, 1}}, 4, 3.0};
}

const kpbs::Algorithm kAll[] = {kpbs::Algorithm::oggp, kpbs::Algorithm::ggp, kpbs::Algorithm::heuristic_weights,
                                kpbs::Algorithm::heuristic_degrees};

}  // namespace

BOOST_AUTO_TEST_SUITE(paper_examples)

BOOST_AUTO_TEST_CASE(short_paper_lower_bound_is_sixteen) {
  const kpbs::LowerBound b = kpbs::lower_bound(short_paper_example());
  BOOST_TEST(b.eta_d == 7.0);  // W: receiver y3 gets 2 + 4 + 1
  BOOST_TEST(b.eta_s == 3);    // Δ = 3 (y3, x4), ⌈9/4⌉ = 3
  BOOST_TEST(b.eta == 16.0);
}

// Section 1.2's example schedule costs β + 2 + β + 4 + β + 1 = 16 (Figure 4 is not in the
// text; this is a schedule with exactly those steps, x1→y1 sent in two pieces as the text
// says). It is valid and meets η, so it is optimal.
BOOST_AUTO_TEST_CASE(short_paper_schedule_of_cost_sixteen_is_valid) {
  const kpbs::Problem p = short_paper_example();
  kpbs::Schedule s;
  s.steps.push_back({{{1, 2, 2}, {0, 0, 2}, {2, 3, 2}, {3, 1, 1.5}}, 2});
  s.steps.push_back({{{2, 2, 4}, {0, 1, 2}, {1, 0, 2}, {3, 3, 1}}, 4});
  s.steps.push_back({{{3, 2, 1}, {0, 0, 1}}, 1});
  const kpbs::Validation v = kpbs::validate(p.times, p.k, p.beta, s);
  BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
  BOOST_TEST(v.cost == 16.0);
}

BOOST_AUTO_TEST_CASE(every_algorithm_is_valid_and_no_cheaper_than_eta) {
  const kpbs::Problem p = short_paper_example();
  for (kpbs::Algorithm a : kAll) {
    BOOST_TEST_CONTEXT(kpbs::name(a)) {
      const kpbs::Schedule s = kpbs::plan(p, a);
      const kpbs::Validation v = kpbs::validate(p.times, p.k, p.beta, s);
      BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
      BOOST_TEST(v.cost >= 16.0);
      BOOST_TEST(kpbs::cost(s, p.beta) == v.cost, boost::test_tools::tolerance(1e-12));
    }
  }
}

// The same example in platform form: 10 MB/s nodes, a 40 MB/s backbone (k = 4), 3 s steps.
BOOST_AUTO_TEST_CASE(short_paper_in_platform_form) {
  kpbs::PlatformProblem pp;
  pp.platform = {10e6, 10e6, 40e6, 3.0, {}, {}};
  pp.bytes = kpbs::Matrix{{30e6, 20e6, 0, 0}, {20e6, 0, 20e6, 0}, {0, 0, 40e6, 20e6}, {0, 15e6, 10e6, 10e6}};
  const kpbs::Problem p = kpbs::normalize(pp);
  BOOST_TEST(p.k == 4);
  BOOST_TEST(kpbs::lower_bound(p).eta == 16.0, boost::test_tools::tolerance(1e-12));
  for (kpbs::Algorithm a : kAll) {
    BOOST_TEST_CONTEXT(kpbs::name(a)) {
      const kpbs::Schedule in_bytes = kpbs::to_bytes(kpbs::plan(p, a), pp);
      const kpbs::Validation v = kpbs::validate(pp.bytes, p.k, p.beta, in_bytes, {.rate = 10e6});
      BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
      BOOST_TEST(v.cost >= 16.0 - 1e-9);
      for (const auto& step : in_bytes.steps) {
        for (const auto& t : step.transfers) BOOST_TEST(t.amount == std::floor(t.amount));
      }
    }
  }
}

// The short paper's Section 2.3 and the kpbs paper's Figs. 1, 2 and 7: five
// edges of weights 1, 1, 1, 1, 2 between 4 + 4 nodes, k = 3, β = 1. GGP ends with two steps
// of three real edges, the weight-2 edge cut in two, cost 1 + 1 + 2β = 4 = η.
BOOST_AUTO_TEST_CASE(ggp_walkthrough_costs_four) {
  const kpbs::Problem p{kpbs::Matrix{{2, 0, 0, 0}, {0, 1, 1, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}, 3, 1.0};
  for (kpbs::Algorithm a : {kpbs::Algorithm::ggp, kpbs::Algorithm::oggp}) {
    BOOST_TEST_CONTEXT(kpbs::name(a)) {
      const kpbs::Schedule s = kpbs::plan(p, a);
      const kpbs::Validation v = kpbs::validate(p.times, p.k, p.beta, s);
      BOOST_TEST(v.ok());
      BOOST_TEST(s.steps.size() == 2u);
      BOOST_TEST(v.cost == 4.0);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
