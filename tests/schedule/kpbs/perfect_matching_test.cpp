// The matching that peeling repairs step after step, checked against from-scratch
// Hopcroft–Karp and against exhaustive search.
#include "coordinator/schedule/kpbs/perfect_matching.h"
#include "coordinator/schedule/kpbs/peeling.h"
#include "random_problems.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <functional>
#include <limits>

namespace kpbs = baton::schedule::kpbs;

namespace {

// The largest smallest weight over all perfect matchings of the live edges (-1 if none).
double exhaustive_max_min(const kpbs::BipartiteGraph& g) {
  double best = -1;
  std::vector<bool> used(static_cast<std::size_t>(g.right_count()), false);
  std::function<void(int, double)> extend = [&](int u, double lightest) {
    if (lightest <= best) return;
    if (u == g.left_count()) {
      best = lightest;
      return;
    }
    for (int e : g.edges_of(u)) {
      const auto v = static_cast<std::size_t>(g.edge(e).right);
      if (!g.alive(e) || used[v]) continue;
      used[v] = true;
      extend(u + 1, std::min(lightest, g.edge(e).weight));
      used[v] = false;
    }
  };
  extend(0, std::numeric_limits<double>::infinity());
  return best;
}

bool is_matching_of_live_edges(const kpbs::BipartiteGraph& g, const std::vector<int>& edges) {
  std::vector<bool> left(static_cast<std::size_t>(g.left_count())), right(static_cast<std::size_t>(g.right_count()));
  for (int e : edges) {
    if (!g.alive(e)) return false;
    const auto u = static_cast<std::size_t>(g.edge(e).left), v = static_cast<std::size_t>(g.edge(e).right);
    if (left[u] || right[v]) return false;
    left[u] = right[v] = true;
  }
  return true;
}

double hint_scale(const kpbs::BipartiteGraph& g) {
  double heaviest = 0;
  for (int e = 0; e < g.edge_count(); ++e) heaviest = std::max(heaviest, g.edge(e).weight);
  return heaviest;
}

// Peels J step by step with the incremental repair of `choice`; at every step checks the
// matching against a from-scratch one (and, when small, exhaustive search).
void check_peel(const kpbs::Problem& p, kpbs::MatchingChoice choice, bool exhaustive) {
  kpbs::ExtendedGraph x = kpbs::build_extended_graph(p);
  kpbs::BipartiteGraph& j = x.j;
  kpbs::Matching m(j), reference(j);
  std::vector<int> freed;
  for (int u = 0; u < j.left_count(); ++u) freed.push_back(u);
  int alive = 0;
  for (int e = 0; e < j.edge_count(); ++e) alive += j.alive(e);
  double hint = std::numeric_limits<double>::infinity();
  std::mt19937_64 rng(static_cast<unsigned long>(j.edge_count()));
  while (alive > 0) {
    // The hint only steers the search: any hint, too low or too high, gives the optimum.
    const kpbs::Matching before = m;
    std::vector<kpbs::Matching> others;
    if (choice == kpbs::MatchingChoice::max_min_weight) {
      for (double other_hint : {0.0, std::uniform_real_distribution<double>(0, 2 * hint_scale(j))(rng)}) {
        others.push_back(before);
        kpbs::find_perfect_matching(others.back(), j, freed, choice, {.incremental = true}, other_hint);
      }
    }
    kpbs::find_perfect_matching(m, j, freed, choice, {.incremental = true}, hint);
    BOOST_TEST_REQUIRE(m.perfect());
    BOOST_TEST_REQUIRE(is_matching_of_live_edges(j, m.edges()));
    if (choice == kpbs::MatchingChoice::max_min_weight) {
      kpbs::find_perfect_matching(reference, j, {}, choice, {.incremental = false}, 0);
      BOOST_TEST_REQUIRE(reference.perfect());
      BOOST_TEST(m.lightest() == reference.lightest());
      if (exhaustive) BOOST_TEST(m.lightest() == exhaustive_max_min(j));
      for (const kpbs::Matching& other : others) {
        BOOST_TEST(other.perfect());
        BOOST_TEST(other.lightest() == reference.lightest());
      }
    }
    const double s = m.lightest();
    hint = s;
    for (int e : m.edges()) {
      j.edge(e).weight -= s;
      if (j.edge(e).weight == 0) --alive;
    }
    freed = m.drop_dead_edges(j);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(perfect_matching)

BOOST_AUTO_TEST_CASE(oggp_repair_finds_the_max_min_perfect_matching_every_step) {
  std::mt19937_64 rng(3);
  for (int n = 0; n < 300; ++n) {
    const kpbs::Problem p = kpbs::test::random_problem(rng, {"small", 4, 0.6, 1, 9, true});
    BOOST_TEST_CONTEXT("small #" << n) { check_peel(p, kpbs::MatchingChoice::max_min_weight, true); }
  }
  for (int n = 0; n < 100; ++n) {
    const kpbs::Problem p = kpbs::test::random_problem(rng, {"large", 12, 0.4, 1, 100000, true});
    BOOST_TEST_CONTEXT("large #" << n) { check_peel(p, kpbs::MatchingChoice::max_min_weight, false); }
  }
}

BOOST_AUTO_TEST_CASE(ggp_repair_keeps_a_perfect_matching_every_step) {
  std::mt19937_64 rng(4);
  for (int n = 0; n < 300; ++n) {
    const kpbs::Problem p = kpbs::test::random_problem(rng, {"mixed", 10, 0.4, 1, 1000, true});
    BOOST_TEST_CONTEXT("#" << n) { check_peel(p, kpbs::MatchingChoice::any, false); }
  }
}

BOOST_AUTO_TEST_CASE(widest_path_prefers_the_heavier_route) {
  // Left 0 is matched to right 0 (weight 9); left 1 is free. Left 1 reaches the free right 1
  // directly with weight 2, or takes right 0 with weight 5 and pushes left 0 to right 1
  // with weight 7: the widest path is the second, of value 5.
  kpbs::BipartiteGraph g(2, 2);
  const int e00 = g.add_edge(0, 0, 9);
  const int e01 = g.add_edge(0, 1, 7);
  g.add_edge(1, 1, 2);
  const int e10 = g.add_edge(1, 0, 5);
  kpbs::Matching m(g);
  m.assign({e00});
  BOOST_TEST(m.augment_widest(1, 0) == 5.0);
  const std::vector<int> edges = m.edges();
  BOOST_TEST((edges == std::vector<int>{e01, e10}));
  BOOST_TEST(m.lightest() == 5.0);
}

BOOST_AUTO_TEST_CASE(hopcroft_karp_respects_the_threshold) {
  kpbs::BipartiteGraph g(2, 2);
  g.add_edge(0, 0, 3);
  g.add_edge(0, 1, 1);
  g.add_edge(1, 0, 1);
  kpbs::Matching m(g);
  m.maximize(2);
  BOOST_TEST(m.size() == 1);
  m.clear();
  m.maximize(1);
  BOOST_TEST(m.size() == 2);
}

BOOST_AUTO_TEST_SUITE_END()
