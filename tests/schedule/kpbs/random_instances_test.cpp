// Thousands of random instances of many shapes through the independent validator, for
// every algorithm, with the bounds the paper proves.
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/validator.h"
#include "random_problems.h"

#include <boost/test/unit_test.hpp>

namespace kpbs = baton::schedule::kpbs;

namespace {

const kpbs::Algorithm kAlgorithms[] = {kpbs::Algorithm::oggp, kpbs::Algorithm::ggp, kpbs::Algorithm::heuristic_weights,
                                       kpbs::Algorithm::heuristic_degrees};

}  // namespace

BOOST_AUTO_TEST_SUITE(random_instances)

BOOST_AUTO_TEST_CASE(every_plan_is_valid_and_within_the_bounds) {
  std::mt19937_64 rng(7);
  int checked = 0;
  for (const auto& shape : kpbs::test::kRandomShapes) {
    for (int n = 0; n < 250; ++n) {
      const kpbs::Problem p = kpbs::test::random_problem(rng, shape);
      const double eta = kpbs::lower_bound(p).eta;
      for (kpbs::Algorithm a : kAlgorithms) {
        BOOST_TEST_CONTEXT(shape.name << " #" << n << " " << kpbs::name(a)) {
          const kpbs::Schedule s = kpbs::plan(p, a);
          const kpbs::Validation v = kpbs::validate(p.times, p.k, p.beta, s);
          BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
          BOOST_TEST(v.cost >= eta * (1 - 1e-12));  // Proposition 1
          if (a == kpbs::Algorithm::ggp || a == kpbs::Algorithm::oggp) {
            BOOST_TEST(v.cost <= 8.0 / 3.0 * eta * (1 + 1e-12));  // Theorem 2
          }
          ++checked;
        }
      }
      // The unscheduled baseline moves everything, in one step, ignoring k.
      const kpbs::Validation all =
          kpbs::validate(p.times, p.k, p.beta, kpbs::plan(p, kpbs::Algorithm::all_at_once), {.kpbs_rules = false});
      BOOST_TEST(all.ok());
    }
  }
  BOOST_TEST(checked == 12 * 250 * 4);
}

BOOST_AUTO_TEST_CASE(from_scratch_peeling_gives_plans_of_the_same_kind) {
  std::mt19937_64 rng(8);
  for (int n = 0; n < 200; ++n) {
    const kpbs::Problem p = kpbs::test::random_problem(rng, kpbs::test::kRandomShapes[n % 4]);
    for (kpbs::Algorithm a : {kpbs::Algorithm::ggp, kpbs::Algorithm::oggp}) {
      const kpbs::Schedule s = kpbs::plan(p, a, {.incremental = false});
      const kpbs::Validation v = kpbs::validate(p.times, p.k, p.beta, s);
      BOOST_TEST(v.ok());
      BOOST_TEST(v.cost <= 8.0 / 3.0 * kpbs::lower_bound(p).eta * (1 + 1e-12));
    }
  }
}

BOOST_AUTO_TEST_CASE(nothing_to_send_gives_no_step) {
  const kpbs::Problem p{kpbs::Matrix(3, 4), 2, 1.0};
  for (kpbs::Algorithm a : kAlgorithms) BOOST_TEST(kpbs::plan(p, a).steps.empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(peel_interruption)

BOOST_AUTO_TEST_CASE(keep_going_stops_the_peel_after_the_steps_it_allows) {
  const kpbs::Problem p{kpbs::Matrix{{5, 3, 1}, {2, 4, 6}, {1, 1, 7}}, 2, 1.0};
  for (bool incremental : {true, false}) {
    kpbs::PeelOptions options{.incremental = incremental};
    options.keep_going = [](std::size_t done) { return done < 2; };
    try {
      kpbs::plan(p, kpbs::Algorithm::oggp, options);
      BOOST_FAIL("the peel was not interrupted");
    } catch (const kpbs::PeelInterrupted& e) {
      BOOST_TEST(e.steps_done == 2u);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
