// The platform form (Section 2.1 of the kpbs paper): d and k from the rates, schedules
// mapped back to whole bytes.
#include "coordinator/schedule/kpbs/platform.h"
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/validator.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>

namespace kpbs = baton::schedule::kpbs;

BOOST_AUTO_TEST_SUITE(platform)

// Section 2.1's example: n1 = 200, n2 = 100, d1 = 10 Mbit/s, d2 = 100 Mbit/s, D = 1 Gbit/s
// gives d = 10 Mbit/s and k = 100.
BOOST_AUTO_TEST_CASE(paper_example_gives_k_100) {
  const kpbs::Platform p{10e6 / 8, 100e6 / 8, 1000e6 / 8, 0.01, {}, {}};
  BOOST_TEST(kpbs::flow_rate(p) == 10e6 / 8);
  BOOST_TEST(kpbs::derive_k(p, 200, 100) == 100);
  BOOST_TEST(kpbs::derive_k(p, 50, 100) == 50);
  BOOST_TEST(kpbs::derive_k({10, 10, 35, 1, {}, {}}, 9, 9) == 3);  // ⌊35/10⌋
}

BOOST_AUTO_TEST_CASE(schedules_map_to_whole_bytes_that_add_up) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> nodes(1, 7);
  std::uniform_int_distribution<long> bytes(0, 50'000'000);
  std::bernoulli_distribution zero(0.3);
  for (int n = 0; n < 300; ++n) {
    kpbs::PlatformProblem pp;
    pp.platform = {12.5e6, 10e6 + 1000.0 * n, 37.5e6, 0.002 * (1 + n % 5), {}, {}};
    pp.bytes = kpbs::Matrix(static_cast<std::size_t>(nodes(rng)), static_cast<std::size_t>(nodes(rng)));
    for (std::size_t i = 0; i < pp.bytes.senders(); ++i) {
      for (std::size_t j = 0; j < pp.bytes.receivers(); ++j) {
        pp.bytes.at(i, j) = zero(rng) ? 0 : static_cast<double>(bytes(rng));
      }
    }
    const kpbs::Problem p = kpbs::normalize(pp);
    for (kpbs::Algorithm a : {kpbs::Algorithm::oggp, kpbs::Algorithm::ggp, kpbs::Algorithm::heuristic_weights}) {
      BOOST_TEST_CONTEXT("#" << n << " " << kpbs::name(a)) {
        const kpbs::Schedule s = kpbs::to_bytes(kpbs::plan(p, a), pp);
        // Whole bytes add up exactly: tolerance 0.
        const kpbs::Validation v =
            kpbs::validate(pp.bytes, p.k, p.beta, s, {.rate = kpbs::flow_rate(pp.platform), .tolerance = 0});
        BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
        for (const auto& step : s.steps) {
          for (const auto& t : step.transfers) BOOST_TEST(t.amount == std::floor(t.amount));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
