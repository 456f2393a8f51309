// The branch-and-bound searches of Section 6.2 and the size of their tree.
#include <boost/test/unit_test.hpp>

#include "coordinator/schedule/reduction/generic_search.h"
#include "coordinator/schedule/reduction/guided_search.h"
#include "coordinator/schedule/reduction/sender_order_schedule.h"
#include "coordinator/schedule/reduction/snf.h"
#include "coordinator/schedule/reduction/speed_classes.h"
#include "coordinator/schedule/reduction/validator.h"
#include "tests/schedule/reduction/exhaustive.h"

#include <random>
#include <set>

using namespace baton::schedule::reduction;
using baton::schedule::reduction::test::optimal_reduction;
using baton::schedule::reduction::test::random_times;

namespace {

double sender_optimum(const Problem& problem) {
  std::vector<double> times;
  for (std::size_t p : senders(problem)) times.push_back(problem.times[p]);
  return optimal_reduction(times);
}

// All distinct class sequences, prefixes included, by brute force.
void count_prefixes(std::vector<std::size_t>& left, std::uint64_t& nodes, std::uint64_t& leaves) {
  ++nodes;
  bool leaf = true;
  for (std::size_t& c : left) {
    if (c == 0) continue;
    leaf = false;
    --c;
    count_prefixes(left, nodes, leaves);
    ++c;
  }
  leaves += leaf ? 1 : 0;
}

}  // namespace

BOOST_AUTO_TEST_CASE(search_tree_size_counts_every_class_sequence) {
  for (const std::vector<std::size_t>& sizes :
       {std::vector<std::size_t>{3, 3, 3}, {1, 4, 2}, {9}, {2, 2, 2, 2}, {5, 1}, {}}) {
    std::vector<std::size_t> left = sizes;
    std::uint64_t nodes = 0, leaves = 0;
    count_prefixes(left, nodes, leaves);
    const SearchTreeSize size = search_tree_size(sizes, 1'000'000);
    BOOST_TEST(size.nodes == nodes);
    BOOST_TEST(size.leaves == leaves);
    BOOST_TEST(!size.saturated);
  }
  const SearchTreeSize huge = search_tree_size(std::vector<std::size_t>(23, 1), 1'000'000);
  BOOST_TEST(huge.saturated);
  BOOST_TEST(huge.nodes == 1'000'000u);
}

BOOST_AUTO_TEST_CASE(speed_classes_are_slowest_first_without_the_destination) {
  const Problem problem{.times = {2, 5, 2, 9, 5, 1}, .destination = 5};
  const std::vector<SpeedClass> classes = speed_classes(problem);
  BOOST_TEST_REQUIRE(classes.size() == 3u);
  BOOST_TEST(classes[0].time == 9.0);
  BOOST_TEST(classes[1].nodes == (std::vector<std::size_t>{1, 4}), boost::test_tools::per_element());
  BOOST_TEST(classes[2].nodes == (std::vector<std::size_t>{0, 2}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(both_searches_find_the_exhaustive_optimum) {
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> time(1, 4);
  for (int trial = 0; trial < 250; ++trial) {
    const std::size_t n = 2 + trial % 9;
    std::vector<double> speeds(2 + trial % 3);
    for (double& s : speeds) s = trial % 2 == 0 ? time(rng) : std::round(time(rng) * 2) / 2;
    const Problem problem{.times = random_times(rng, n, speeds), .destination = trial % n};
    const double optimum = sender_optimum(problem);
    const SearchResult guided = guided_search(problem);
    const SearchResult generic = generic_search(problem);
    BOOST_TEST_REQUIRE(guided.complete);
    BOOST_TEST_REQUIRE(generic.complete);
    BOOST_TEST(guided.makespan == optimum, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(generic.makespan == optimum, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(guided.visited_nodes <= generic.visited_nodes);
    BOOST_TEST(guided.expanded_nodes <= guided.visited_nodes);
    const Schedule schedule = schedule_sender_order(problem, guided.order);
    const Verdict verdict = validate_reduction(problem, schedule);
    BOOST_TEST_REQUIRE(!verdict.broken, verdict.broken.value_or("").reason);
    BOOST_TEST(verdict.makespan == guided.makespan);
  }
}

BOOST_AUTO_TEST_CASE(guided_search_starts_from_snf) {
  // Its first leaf is the SNF order: stopped right after the first dive it holds SNF.
  std::mt19937_64 rng(29);
  const std::vector<double> speeds{1, 1.3, 1.7, 2.2};
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t n = 3 + trial % 10;
    const Problem problem{.times = random_times(rng, n, speeds), .destination = 0};
    const SearchResult first = guided_search(problem, {.max_nodes = n, .stop_requested = {}});
    BOOST_TEST(first.order == snf_order(problem), boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(guided_search_visits_a_small_part_of_the_tree) {
  // Table 1 at 10 senders and three classes: the paper's guided search examines 6% of the
  // tree, its generic one 72%. We see about 20% and 90% (docs/reduction.md); check the
  // guided search stays well below both.
  std::mt19937_64 rng(37);
  const std::vector<double> speeds{1, 1.6, 2.5};
  std::uint64_t guided = 0, generic = 0, tree = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const Problem problem{.times = random_times(rng, 11, speeds), .destination = 0};
    std::vector<std::size_t> sizes;
    for (const SpeedClass& c : speed_classes(problem)) sizes.push_back(c.nodes.size());
    tree += search_tree_size(sizes, 1'000'000'000).nodes;
    guided += guided_search(problem).visited_nodes;
    generic += generic_search(problem).visited_nodes;
  }
  BOOST_TEST(guided * 3 < tree);
  BOOST_TEST(guided * 3 < generic);
  BOOST_TEST(generic <= tree);
}

BOOST_AUTO_TEST_CASE(a_search_stopped_early_says_so) {
  const Problem problem{.times = {1, 2, 3, 4, 5, 6, 7, 8, 9}, .destination = 0};
  const SearchResult stopped = generic_search(problem, {.max_nodes = 100, .stop_requested = {}});
  BOOST_TEST(!stopped.complete);
  BOOST_TEST(stopped.visited_nodes == 100u);
  int polls = 0;
  const SearchResult asked = generic_search(problem, {.max_nodes = 0, .stop_requested = [&] { return ++polls >= 2; }});
  BOOST_TEST(!asked.complete);
  BOOST_TEST(asked.visited_nodes == 2048u);
}

BOOST_AUTO_TEST_CASE(a_single_node_needs_no_transfer) {
  const Problem alone{.times = {4}, .destination = 0};
  const SearchResult result = guided_search(alone);
  BOOST_TEST(result.complete);
  BOOST_TEST(result.makespan == 0.0);
  BOOST_TEST(result.order.empty());
}
