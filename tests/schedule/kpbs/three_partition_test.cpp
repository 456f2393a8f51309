// Theorem 1's reduction from 3-Partition (kpbs paper, Section 4, Fig. 3): with k = 2,
// V1 = {v_1..v_3m, x_1..x_m}, V2 = {g, h}, edges (v_i, g) of weight a(u_i) and (x_j, h) of
// weight a(U)/m, a schedule of cost B = a(U) + 3m exists iff the 3-Partition instance
// does; no schedule costs less than B.
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/validator.h"

#include <boost/test/unit_test.hpp>

#include <numeric>
#include <vector>

namespace kpbs = baton::schedule::kpbs;

namespace {

struct Gadget {
  kpbs::Problem problem;
  double bound = 0;  // B
};

Gadget gadget(const std::vector<double>& a, int m) {
  const double total = std::accumulate(a.begin(), a.end(), 0.0);
  Gadget g;
  g.problem.k = 2;
  g.problem.beta = 1;
  g.problem.times = kpbs::Matrix(a.size() + static_cast<std::size_t>(m), 2);  // columns g, h
  for (std::size_t i = 0; i < a.size(); ++i) g.problem.times.at(i, 0) = a[i];
  for (int j = 0; j < m; ++j) g.problem.times.at(a.size() + static_cast<std::size_t>(j), 1) = total / m;
  g.bound = total + static_cast<double>(a.size());
  return g;
}

// a = {4, 5, 6 | 3, 5, 7}: m = 2 triples of sum 15, a solvable instance.
const std::vector<double> kSolvable{4, 5, 6, 3, 5, 7};
const std::vector<std::vector<std::size_t>> kPartition{{0, 1, 2}, {3, 4, 5}};

}  // namespace

BOOST_AUTO_TEST_SUITE(three_partition)

BOOST_AUTO_TEST_CASE(lower_bound_equals_B) {
  const Gadget g = gadget(kSolvable, 2);
  BOOST_TEST(kpbs::lower_bound(g.problem).eta == g.bound);
}

// The (⇒) direction: step i pairs (v_i, g) with (x_j, h), u_i ∈ U_j, both for a(u_i).
BOOST_AUTO_TEST_CASE(partition_gives_a_schedule_of_cost_B) {
  const Gadget g = gadget(kSolvable, 2);
  kpbs::Schedule s;
  for (std::size_t j = 0; j < kPartition.size(); ++j) {
    for (std::size_t i : kPartition[j]) {
      s.steps.push_back({{{i, 0, kSolvable[i]}, {kSolvable.size() + j, 1, kSolvable[i]}}, kSolvable[i]});
    }
  }
  const kpbs::Validation v = kpbs::validate(g.problem.times, 2, 1.0, s);
  BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
  BOOST_TEST(v.cost == g.bound);
}

BOOST_AUTO_TEST_CASE(no_algorithm_beats_B) {
  // A solvable and an unsolvable instance (sizes 1, 1, 1, 1, 1, 7: no triple sums to 6).
  for (const auto& a : {kSolvable, std::vector<double>{1, 1, 1, 1, 1, 7}}) {
    const Gadget g = gadget(a, 2);
    for (kpbs::Algorithm alg : {kpbs::Algorithm::oggp, kpbs::Algorithm::ggp, kpbs::Algorithm::heuristic_weights,
                                kpbs::Algorithm::heuristic_degrees}) {
      BOOST_TEST_CONTEXT(kpbs::name(alg)) {
        const kpbs::Validation v = kpbs::validate(g.problem.times, 2, 1.0, kpbs::plan(g.problem, alg));
        BOOST_TEST(v.ok());
        BOOST_TEST(v.cost >= g.bound);
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
