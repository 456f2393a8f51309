#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/validator.h"

#include <boost/test/unit_test.hpp>

namespace kpbs = baton::schedule::kpbs;

BOOST_AUTO_TEST_SUITE(lower_bound)

// The kpbs paper, Section 5: "in Fig. 1, W(G) = 2, P(G) = 6 and Δ(G) = 2". Fig. 1 is not
// in the text; this graph has those figures (and Fig. 2's two steps of 3 edges at k = 3).
BOOST_AUTO_TEST_CASE(figure_one_statistics) {
  const kpbs::Problem p{kpbs::Matrix{{2, 0, 0, 0}, {0, 1, 1, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}, 3, 1.0};
  const kpbs::LowerBound b = kpbs::lower_bound(p);
  BOOST_TEST(b.eta_d == 2.0);  // max(W = 2, P/k = 6/3)
  BOOST_TEST(b.eta_s == 2);    // max(Δ = 2, ⌈5/3⌉ = 2)
  BOOST_TEST(b.eta == 4.0);
}

// Decision beside lower_bound(): η_d uses P/k, not ⌈P/k⌉. This schedule is valid and costs
// 1.5, so no lower bound may exceed 1.5 — the rounded-up version (2) would.
BOOST_AUTO_TEST_CASE(rational_weights_make_the_ceiling_unsound) {
  const kpbs::Problem p{kpbs::Matrix{{0.5, 0}, {0, 0.5}}, 2, 1.0};
  kpbs::Schedule s;
  s.steps.push_back({{{0, 0, 0.5}, {1, 1, 0.5}}, 0.5});
  const kpbs::Validation v = kpbs::validate(p.times, p.k, p.beta, s);
  BOOST_TEST(v.ok());
  BOOST_TEST(v.cost == 1.5);
  BOOST_TEST(kpbs::lower_bound(p).eta <= v.cost);
  BOOST_TEST(kpbs::lower_bound(p).eta == 1.5);
}

BOOST_AUTO_TEST_CASE(steps_term_counts_edges_over_k) {
  // Six disjoint edges, k = 4: two steps at least although every degree is 1.
  kpbs::Problem p{kpbs::Matrix(6, 6), 4, 2.0};
  for (std::size_t i = 0; i < 6; ++i) p.times.at(i, i) = 1;
  const kpbs::LowerBound b = kpbs::lower_bound(p);
  BOOST_TEST(b.eta_s == 2);
  BOOST_TEST(b.eta_d == 1.5);  // P/k = 6/4 beats W = 1
  BOOST_TEST(b.eta == 1.5 + 2 * 2.0);
}

BOOST_AUTO_TEST_CASE(empty_matrix_costs_nothing) {
  const kpbs::Problem p{kpbs::Matrix(3, 2), 2, 1.0};
  BOOST_TEST(kpbs::lower_bound(p).eta == 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
