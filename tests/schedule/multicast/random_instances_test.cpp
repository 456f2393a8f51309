// Every algorithm on random instances (fixed seeds), checked by the independent
// validator and against the lower bound; single broadcast and all-to-all broadcast as the
// special cases of Section 3.1.
#include "coordinator/schedule/multicast/algorithms.h"
#include "coordinator/schedule/multicast/lower_bound.h"
#include "coordinator/schedule/multicast/validator.h"
#include "tests/schedule/multicast/random_problems.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace bm = baton::schedule::multicast;
using bm::testing::CostKind;
using bm::testing::Lengths;
using bm::testing::RandomOptions;

namespace {

// Plans with every algorithm, validates, and checks lower bound <= completion.
void check_all_algorithms(const bm::Problem& problem, const std::string& what) {
  BOOST_TEST_REQUIRE(!bm::problem_error(problem).has_value());
  const double bound = bm::earliest_reach_lower_bound(problem);
  for (const std::string& name : bm::algorithm_names()) {
    const bm::Schedule s = bm::plan(problem, {.algorithm = *bm::parse_algorithm(name), .seed = 5});
    const bm::Validation v = bm::validate(problem, s.tasks);
    BOOST_TEST_CONTEXT(what << ", " << name) {
      BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
      BOOST_TEST(s.selection_order.size() == bm::delivery_count(problem));
      BOOST_TEST(bm::completion_time(s.tasks) == v.completion_time, boost::test_tools::tolerance(1e-12));
      BOOST_TEST(bound <= v.completion_time * (1 + 1e-12));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(random_instances)

BOOST_AUTO_TEST_CASE(general_multiple_multicast_on_the_papers_model) {
  std::mt19937_64 rng(20240611);
  for (int round = 0; round < 120; ++round) {
    const RandomOptions o{
        .nodes = 2 + bm::testing::below(rng, 9), .costs = CostKind::paper, .lengths = static_cast<Lengths>(round % 3)};
    check_all_algorithms(bm::testing::random_problem(rng, o), "paper model, round " + std::to_string(round));
  }
}

BOOST_AUTO_TEST_CASE(whole_number_costs_with_ties_and_zero_durations) {
  std::mt19937_64 rng(99);
  for (int round = 0; round < 150; ++round) {
    const RandomOptions o{.nodes = 2 + bm::testing::below(rng, 6), .costs = CostKind::integer};
    check_all_algorithms(bm::testing::random_problem(rng, o), "integer costs, round " + std::to_string(round));
  }
}

BOOST_AUTO_TEST_CASE(single_broadcast_from_every_source) {
  std::mt19937_64 rng(3);
  for (std::size_t nodes : {2, 5, 12}) {
    for (bm::NodeId source = 0; source < nodes; ++source) {
      const RandomOptions o{.nodes = nodes, .lengths = static_cast<Lengths>(source % 3)};
      const bm::Problem p = bm::testing::single_broadcast(rng, o, source);
      check_all_algorithms(p, "broadcast on " + std::to_string(nodes) + " from " + std::to_string(source));
      // One message per destination: the bound is the farthest earliest reach.
      const std::vector<double> reach = bm::earliest_reach_times(p, 0);
      double farthest = 0;
      for (double r : reach) farthest = std::max(farthest, r);
      BOOST_TEST(bm::earliest_reach_lower_bound(p) == farthest);
    }
  }
}

BOOST_AUTO_TEST_CASE(two_node_broadcast_is_one_latency_for_every_algorithm) {
  // One transfer: every algorithm sends at 0 and the receive ends at S + X·l + R.
  std::mt19937_64 rng(8);
  const bm::Problem p = bm::testing::single_broadcast(rng, {.nodes = 2}, 1);
  for (const std::string& name : bm::algorithm_names()) {
    const bm::Schedule s = bm::plan(p, {.algorithm = *bm::parse_algorithm(name)});
    BOOST_TEST(bm::completion_time(s.tasks) == bm::latency(p, 1, 0, 0));
  }
}

BOOST_AUTO_TEST_CASE(all_to_all_broadcast) {
  std::mt19937_64 rng(17);
  for (std::size_t nodes : {2, 3, 6, 10}) {
    for (Lengths lengths : {Lengths::small, Lengths::large, Lengths::mixed}) {
      const bm::Problem p = bm::testing::all_to_all(rng, {.nodes = nodes, .lengths = lengths});
      BOOST_TEST(bm::delivery_count(p) == nodes * (nodes - 1));
      check_all_algorithms(p, "all-to-all on " + std::to_string(nodes));
    }
  }
}

BOOST_AUTO_TEST_CASE(two_node_all_to_all_by_hand) {
  // S = R = 1, no link time, both nodes broadcast. Plain algorithms append: the first
  // delivery ends at 2, the second node may send only after its receive: 2 + 1 + 1 = 4.
  // Preemption puts the second send before the receive (its message arrives at 1 and the
  // send ends at 1): both receives end at 2, the lower bound.
  bm::Problem p;
  p.nodes = {{1, 0, 1, 0}, {1, 0, 1, 0}};
  p.link_per_byte = bm::uniform_links(2, 0);
  p.multicasts = {{0, 10, {1}}, {1, 10, {0}}};
  BOOST_TEST(bm::earliest_reach_lower_bound(p) == 2.0);
  for (const std::string& name : bm::algorithm_names()) {
    const bm::Algorithm a = *bm::parse_algorithm(name);
    const double expected = a.placement == bm::Placement::preemptive ? 2.0 : 4.0;
    BOOST_TEST(bm::completion_time(bm::plan(p, {.algorithm = a}).tasks) == expected, name);
  }
}

BOOST_AUTO_TEST_CASE(random_selection_depends_on_the_seed) {
  std::mt19937_64 rng(4);
  const bm::Problem p = bm::testing::all_to_all(rng, {.nodes = 8});
  const bm::Algorithm rrs = *bm::parse_algorithm("rrs");
  const bm::Schedule first = bm::plan(p, {.algorithm = rrs, .seed = 1});
  int different = 0;
  for (std::uint64_t seed = 2; seed < 10; ++seed) {
    different += bm::plan(p, {.algorithm = rrs, .seed = seed}).selection_order != first.selection_order;
  }
  BOOST_TEST(different > 0);
}

BOOST_AUTO_TEST_CASE(algorithm_names_round_trip) {
  const std::vector<std::string> names = bm::algorithm_names();
  BOOST_TEST(names.size() == 11u);
  for (const std::string& n : names) BOOST_TEST(bm::name(*bm::parse_algorithm(n)) == n);
  BOOST_TEST(!bm::parse_algorithm("fefp").has_value());
  BOOST_TEST(bm::name(bm::kDefaultAlgorithm) == "wrp");
}

BOOST_AUTO_TEST_SUITE_END()
