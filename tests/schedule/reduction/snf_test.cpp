// SNF against the paper's theorems, checked with the independent tree recursion.
#include <boost/test/unit_test.hpp>

#include "coordinator/schedule/reduction/binomial_tree.h"
#include "coordinator/schedule/reduction/snf.h"
#include "coordinator/schedule/reduction/validator.h"
#include "tests/schedule/reduction/exhaustive.h"

#include <bit>
#include <random>

using namespace baton::schedule::reduction;
using baton::schedule::reduction::test::optimal_reduction;
using baton::schedule::reduction::test::random_times;

namespace {

double sender_optimum(const Problem& problem) {
  std::vector<double> times;
  for (std::size_t p : senders(problem)) times.push_back(problem.times[p]);
  return optimal_reduction(times);
}

double checked_snf(const Problem& problem) {
  const Verdict verdict = validate_reduction(problem, snf(problem));
  BOOST_TEST_REQUIRE(!verdict.broken, verdict.broken.value_or("").reason);
  return verdict.makespan;
}

}  // namespace

BOOST_AUTO_TEST_CASE(snf_order_is_slowest_first_ties_by_index) {
  const Problem problem{.times = {3, 1, 3, 2, 1}, .destination = 3};
  BOOST_TEST(snf_order(problem) == (std::vector<std::size_t>{0, 2, 1, 4}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(theorem1_snf_is_optimal_on_power_of_two_clusters) {
  std::mt19937_64 rng(1);
  const std::vector<std::vector<double>> clusters{{1, 2, 4, 8}, {1, 2}, {1, 4, 16}, {0.5, 1, 4}};
  for (int trial = 0; trial < 120; ++trial) {
    const std::size_t n = 2 + trial % 10;
    const Problem problem{.times = random_times(rng, n, clusters[trial % clusters.size()]), .destination = trial % n};
    BOOST_TEST(checked_snf(problem) == sender_optimum(problem));
  }
}

BOOST_AUTO_TEST_CASE(theorem4_snf_is_optimal_for_two_classes_with_ratio_at_least_two) {
  std::mt19937_64 rng(2);
  const std::vector<double> slow{2, 2.5, 3, 4.75, 9};
  for (int trial = 0; trial < 150; ++trial) {
    const std::size_t n = 2 + trial % 14;
    const std::vector<double> speeds{1, slow[trial % slow.size()]};
    const Problem problem{.times = random_times(rng, n, speeds), .destination = 0};
    BOOST_TEST(checked_snf(problem) == sender_optimum(problem), boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(theorem2_snf_is_within_twice_the_optimum) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> time(1, 10);
  double worst = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const std::size_t n = 2 + trial % 8;
    std::vector<double> speeds(2 + trial % 4);
    for (double& s : speeds) s = time(rng);
    const Problem problem{.times = random_times(rng, n, speeds), .destination = 0};
    const double ratio = checked_snf(problem) / sender_optimum(problem);
    BOOST_TEST(ratio >= 1 - 1e-12);
    BOOST_TEST(ratio <= 2.0);
    worst = std::max(worst, ratio);
  }
  BOOST_TEST(worst > 1.0);  // the sweep does reach clusters where SNF is not optimal
}

BOOST_AUTO_TEST_CASE(fig8_snf_is_not_optimal_when_the_ratio_is_below_two) {
  // 4 nodes of time x, 8 of time 1; the destination is one of the slow ones (with a fast
  // destination SNF is optimal here, see the next case, so the paper's numbers need this).
  // SNF takes x + 3; the optimum is 4 for 1 < x < 1.5 and 2x + 1 for 1.5 <= x < 2.
  for (double x : {1.1, 1.25, 1.4, 1.5, 1.6, 1.75, 1.9}) {
    const Problem problem{.times = {x, x, x, x, 1, 1, 1, 1, 1, 1, 1, 1}, .destination = 0};
    BOOST_TEST(checked_snf(problem) == x + 3, boost::test_tools::tolerance(1e-12));
    const double best = x < 1.5 ? 4 : 2 * x + 1;
    BOOST_TEST(sender_optimum(problem) == best, boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(fig8_with_a_fast_destination_snf_is_optimal) {
  for (double x : {1.25, 1.75}) {
    const Problem problem{.times = {x, x, x, x, 1, 1, 1, 1, 1, 1, 1, 1}, .destination = 4};
    BOOST_TEST(checked_snf(problem) == sender_optimum(problem), boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(homogeneous_clusters_take_ceil_log2_n_steps) {
  for (std::size_t n = 1; n <= 70; ++n) {
    const Problem problem{.times = std::vector<double>(n, 3.0), .destination = n / 3};
    const double steps = static_cast<double>(std::bit_width(n - 1));
    BOOST_TEST(checked_snf(problem) == 3.0 * steps);
    const Verdict tree = validate_reduction(problem, binomial_tree(problem));
    BOOST_TEST_REQUIRE(!tree.broken, tree.broken.value_or("").reason);
    BOOST_TEST(tree.makespan == 3.0 * steps);
  }
}

BOOST_AUTO_TEST_CASE(binomial_tree_ignores_speeds) {
  // The baseline puts the slow rank 4 last on the destination's chain: 2 + 8 = 10, where
  // sending it first and overlapping the rest takes 9.
  const Problem mixed{.times = {1, 1, 1, 1, 8, 1, 1, 1}, .destination = 0};
  const Verdict tree = validate_reduction(mixed, binomial_tree(mixed));
  BOOST_TEST_REQUIRE(!tree.broken, tree.broken.value_or("").reason);
  BOOST_TEST(tree.makespan == 10.0);
  BOOST_TEST(sender_optimum(mixed) == 9.0);
  BOOST_TEST(checked_snf(mixed) == 9.0);
}
