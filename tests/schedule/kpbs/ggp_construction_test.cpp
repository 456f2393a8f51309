// GGP's graph J (kpbs paper, Fig. 5 steps 1–3 and Fig. 6) against Proposition 2 and Lemma 1.
#include "coordinator/schedule/kpbs/regular_extension.h"
#include "random_problems.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <functional>
#include <vector>

namespace kpbs = baton::schedule::kpbs;

namespace {

// Calls visit(matching) for every perfect matching of g (edge ids by left vertex), by
// plain backtracking: an exhaustive reference, independent of the matching code.
void for_each_perfect_matching(const kpbs::BipartiteGraph& g,
                               const std::function<void(const std::vector<int>&)>& visit) {
  std::vector<int> chosen;
  std::vector<bool> right_used(static_cast<std::size_t>(g.right_count()), false);
  std::function<void(int)> extend = [&](int u) {
    if (u == g.left_count()) {
      visit(chosen);
      return;
    }
    for (int e : g.edges_of(u)) {
      const auto v = static_cast<std::size_t>(g.edge(e).right);
      if (right_used[v]) continue;
      right_used[v] = true;
      chosen.push_back(e);
      extend(u + 1);
      chosen.pop_back();
      right_used[v] = false;
    }
  };
  extend(0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ggp_construction)

// Proposition 2: J is P(I)/k-weight-regular — on thousands of random instances, with whole
// weights in units of β and as many vertices on each side (|V1_I| + |V2_I| − k).
BOOST_AUTO_TEST_CASE(proposition_2_j_is_weight_regular) {
  std::mt19937_64 rng(2);
  const kpbs::test::Shape shapes[] = {{"small", 6, 0.5, 1, 20, true},
                                      {"sparse", 12, 0.15, 1, 100000, true},
                                      {"below beta", 8, 0.6, 0.01, 0.9, false},
                                      {"dense", 8, 1.0, 0.5, 7.5, false}};
  for (const auto& shape : shapes) {
    for (int n = 0; n < 500; ++n) {
      const kpbs::Problem p = kpbs::test::random_problem(rng, shape);
      const kpbs::ExtendedGraph x = kpbs::build_extended_graph(p);
      if (x.transfers.empty()) continue;
      BOOST_TEST_CONTEXT(shape.name << " #" << n) {
        BOOST_TEST_REQUIRE(x.j.left_count() == x.j.right_count());
        for (double w : x.j.left_weights()) BOOST_TEST(w == x.regular_weight);
        for (double w : x.j.right_weights()) BOOST_TEST(w == x.regular_weight);
        for (int e = 0; e < x.j.edge_count(); ++e) {
          BOOST_TEST(x.j.edge(e).weight == std::floor(x.j.edge(e).weight));
        }
      }
    }
  }
}

// Lemma 1: every perfect matching of J holds exactly k edges of I (real or padding), so
// at most k real transfers. Checked on every perfect matching of small instances.
BOOST_AUTO_TEST_CASE(lemma_1_every_perfect_matching_has_k_edges_of_i) {
  std::mt19937_64 rng(1);
  const kpbs::test::Shape shape{"tiny", 4, 0.5, 1, 5, true};
  int instances = 0;
  long matchings = 0;
  while (instances < 300) {
    const kpbs::Problem p = kpbs::test::random_problem(rng, shape);
    const kpbs::ExtendedGraph x = kpbs::build_extended_graph(p);
    if (x.transfers.empty() || x.j.left_count() > 9) continue;
    ++instances;
    long found = 0;
    for_each_perfect_matching(x.j, [&](const std::vector<int>& m) {
      int of_i = 0;
      for (int e : m) of_i += x.j.edge(e).kind != kpbs::EdgeKind::regular ? 1 : 0;
      BOOST_TEST(of_i == x.k);
      ++found;
    });
    BOOST_TEST(found > 0);  // a weight-regular bipartite graph has a perfect matching
    matchings += found;
  }
  BOOST_TEST_MESSAGE("Lemma 1 checked on " << matchings << " perfect matchings");
  BOOST_TEST(matchings > 1000);
}

BOOST_AUTO_TEST_CASE(k_is_capped_by_the_nodes_with_data) {
  // One sender with data among three: no step can hold two transfers.
  const kpbs::Problem p{kpbs::Matrix{{0, 0}, {3, 4}, {0, 0}}, 5, 1.0};
  const kpbs::ExtendedGraph x = kpbs::build_extended_graph(p);
  BOOST_TEST(x.k == 1);
  BOOST_TEST(x.regular_weight == 7.0);  // P(H)/k
}

// Fig. 5 step 2: δ padding edges make P(I)/k whole and at least W(H).
BOOST_AUTO_TEST_CASE(padding_reaches_phi_times_k) {
  // P(H) = 7, W(H) = 4, k = 2: φ = max(4, ⌈3.5⌉) = 4, φk − P(H) = 1: one padding edge of 1.
  const kpbs::Problem p{kpbs::Matrix{{3, 1}, {0, 3}}, 2, 1.0};
  const kpbs::ExtendedGraph x = kpbs::build_extended_graph(p);
  double padding = 0;
  int padding_edges = 0;
  for (int e = 0; e < x.j.edge_count(); ++e) {
    if (x.j.edge(e).kind != kpbs::EdgeKind::padding) continue;
    padding += x.j.edge(e).weight;
    ++padding_edges;
  }
  BOOST_TEST(x.regular_weight == 4.0);
  BOOST_TEST(padding_edges == 1);
  BOOST_TEST(padding == 1.0);
}

BOOST_AUTO_TEST_SUITE_END()
