// The two-class dynamic programming (equations 2-3) in its three versions.
#include <boost/test/unit_test.hpp>

#include "coordinator/schedule/reduction/mcp_table.h"
#include "coordinator/schedule/reduction/two_class_dp.h"
#include "coordinator/schedule/reduction/validator.h"
#include "error/error.h"
#include "tests/schedule/reduction/exhaustive.h"

#include <random>

using namespace baton::schedule::reduction;
using baton::schedule::reduction::test::optimal_reduction;

namespace {

constexpr DpVariant kVariants[] = {DpVariant::naive, DpVariant::binary_search, DpVariant::pruned};

McpTable table(std::size_t f, std::size_t s, double slow_time, DpVariant variant) {
  return fill_mcp_table({.max_fast = f, .max_slow = s, .fast_time = 1, .slow_time = slow_time, .variant = variant});
}

}  // namespace

BOOST_AUTO_TEST_CASE(equation3_is_a_binomial_tree_of_slow_nodes) {
  const McpTable t = table(0, 9, 2.5, DpVariant::naive);
  const double expected[] = {0, 2.5, 5, 5, 7.5, 7.5, 7.5, 7.5, 10, 10};
  for (std::size_t s = 0; s <= 9; ++s) BOOST_TEST(t.value(0, s) == expected[s]);
}

BOOST_AUTO_TEST_CASE(every_version_equals_the_exhaustive_search) {
  for (double slow : {1.2, 1.5, 1.75, 2.0, 3.0}) {
    for (DpVariant variant : kVariants) {
      const McpTable t = table(7, 10, slow, variant);
      for (std::size_t f = 0; f <= 7; ++f) {
        for (std::size_t s = 0; s + f <= 10; ++s) {
          std::vector<double> times(f, 1.0);
          times.insert(times.end(), s, slow);
          BOOST_TEST(t.value(f, s) == optimal_reduction(times), boost::test_tools::tolerance(1e-12));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(the_three_versions_agree_on_large_tables) {
  for (double slow : {1.1, 1.3, 1.5, 1.9, 2.0, 2.7}) {
    const McpTable naive = table(45, 45, slow, DpVariant::naive);
    const McpTable binary = table(45, 45, slow, DpVariant::binary_search);
    const McpTable pruned = table(45, 45, slow, DpVariant::pruned);
    for (std::size_t f = 0; f <= 45; ++f) {
      for (std::size_t s = 0; s <= 45; ++s) {
        BOOST_TEST(binary.value(f, s) == naive.value(f, s));
        BOOST_TEST(pruned.value(f, s) == naive.value(f, s));
        BOOST_TEST(binary.cell(f, s).lookups <= naive.cell(f, s).lookups);
      }
    }
    BOOST_TEST(binary.total_lookups() < naive.total_lookups());
    BOOST_TEST(pruned.total_lookups() < binary.total_lookups());
  }
}

BOOST_AUTO_TEST_CASE(naive_version_looks_up_every_unordered_buddy_pair) {
  const McpTable t = table(30, 30, 1.5, DpVariant::naive);
  for (std::size_t f = 1; f <= 30; ++f) {
    for (std::size_t s = 0; s <= 30; ++s) {
      BOOST_TEST(t.cell(f, s).lookups == (f * (s + 1) + 1) / 2);
    }
  }
}

BOOST_AUTO_TEST_CASE(lemma4_and_lemma5_monotony) {
  for (double slow : {1.1, 1.5, 1.9, 2.0, 3.5}) {
    const McpTable t = table(60, 60, slow, DpVariant::naive);
    bool fast_nodes_helped = false;
    for (std::size_t f = 0; f <= 60; ++f) {
      for (std::size_t s = 0; s < 60; ++s) BOOST_TEST(t.value(f, s + 1) >= t.value(f, s));  // Lemma 4
    }
    for (std::size_t f = 0; f < 60; ++f) {
      for (std::size_t s = 0; s <= 60; ++s) {
        if (f + 1 >= s) {
          BOOST_TEST(t.value(f + 1, s) >= t.value(f, s));  // Lemma 5
        } else if (t.value(f + 1, s) < t.value(f, s)) {
          fast_nodes_helped = true;  // Section 5.3.4: below f = s - 1, it can go down
        }
      }
    }
    BOOST_TEST(fast_nodes_helped);
  }
}

BOOST_AUTO_TEST_CASE(dp_schedules_are_valid_and_reach_the_table_value) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> ratio(1.01, 3.0);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t n = 1 + trial % 45;
    const double slow = ratio(rng);
    std::bernoulli_distribution is_slow(0.5);
    Problem problem{.times = {}, .destination = (trial * 5) % n};
    for (std::size_t p = 0; p < n; ++p) problem.times.push_back(is_slow(rng) ? slow : 1.0);
    for (DpVariant variant : kVariants) {
      const DpResult result = two_class_dp(problem, variant);
      const Verdict verdict = validate_reduction(problem, result.schedule);
      BOOST_TEST_REQUIRE(!verdict.broken, verdict.broken.value_or("").reason);
      BOOST_TEST(verdict.makespan == result.optimum, boost::test_tools::tolerance(1e-9));
    }
  }
}

BOOST_AUTO_TEST_CASE(fig8_cluster_has_the_papers_optimum) {
  for (double x : {1.25, 1.75}) {
    const Problem problem{.times = {x, x, x, x, 1, 1, 1, 1, 1, 1, 1, 1}, .destination = 0};
    const DpResult result = two_class_dp(problem);
    BOOST_TEST(result.optimum == (x < 1.5 ? 4 : 2 * x + 1), boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(the_destination_speed_does_not_count_as_a_class) {
  const Problem problem{.times = {7, 1, 2, 1, 2}, .destination = 0};
  BOOST_TEST(!validate_reduction(problem, two_class_dp(problem).schedule).broken);
  const Problem three{.times = {7, 1, 2, 3, 2}, .destination = 1};
  BOOST_CHECK_THROW(two_class_dp(three), baton::error::InvalidInput);
}
