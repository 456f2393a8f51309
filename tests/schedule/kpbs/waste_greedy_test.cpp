// The waste accounting (remaining_work.h) against the independent lower bound and
// validator, and waste-greedy (waste_greedy.h) on the papers' examples and random sweeps.
#include "coordinator/schedule/kpbs/waste_greedy.h"
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/oggp_plus.h"
#include "coordinator/schedule/kpbs/remaining_work.h"
#include "coordinator/schedule/kpbs/validator.h"
#include "random_problems.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <tuple>
#include <vector>

namespace kpbs = baton::schedule::kpbs;

namespace {

const kpbs::test::Shape kWasteGreedyShapes[] = {
    {"paper small weights", 8, 0.5, 1, 20, true},
    {"paper large weights", 6, 0.5, 1, 100000, true},
    {"sparse, empty rows", 10, 0.12, 1, 50, true},
    {"dense", 6, 1.0, 1, 10, true},
    {"k = 1", 6, 0.5, 1, 20, true, 1},
    {"k >= n", 5, 0.6, 1, 20, true, 64},
    {"below beta", 6, 0.5, 0.001, 0.99, false, 0, 1},
    {"around beta", 6, 0.6, 0.5, 3.5, false, 0, 1},
    {"tiny weights", 5, 0.5, 1e-9, 1e-6, false, 0, 1e-3},
    {"beta 0.01", 5, 0.5, 0.1, 2, false, 0, 0.01},
};

const kpbs::WasteGreedyOptions kAllVariants[] = {
    {.choice = kpbs::StepChoice::least_waste},
    {.choice = kpbs::StepChoice::least_waste, .favour_ending = true},
    {.choice = kpbs::StepChoice::least_waste_per_time},
    {.choice = kpbs::StepChoice::least_waste_per_time, .favour_ending = true, .durations = 2},
};

// Replays a schedule's steps through RemainingWork, summing their waste.
double total_waste(const kpbs::Problem& p, const kpbs::Schedule& s) {
  kpbs::RemainingWork work(p);
  double waste = 0;
  for (const kpbs::Step& step : s.steps) {
    kpbs::CandidateStep candidate;
    for (const kpbs::Transfer& t : step.transfers) {
      for (int id : work.live()) {
        const kpbs::LiveEdge& e = work.edge(id);
        if (e.sender == static_cast<int>(t.src) && e.receiver == work.senders() + static_cast<int>(t.dst)) {
          candidate.edges.push_back(id);
        }
      }
      candidate.duration = std::max(candidate.duration, t.amount);
    }
    const double w = work.waste(candidate);
    BOOST_TEST(w >= -1e-9 * std::max(1.0, step.duration));  // a step never lowers cost so far + η(rest)
    waste += w;
    work.apply(candidate);
  }
  BOOST_TEST(work.done());
  return waste;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(waste_greedy)

// The accounting identity of remaining_work.h: cost = η(G) + Σ waste, for any valid
// schedule whose every transfer sends min(left, step duration) (OGGP's and GGP's do).
BOOST_AUTO_TEST_CASE(cost_is_eta_plus_total_waste) {
  std::mt19937_64 rng(11);
  for (int n = 0; n < 120; ++n) {
    const kpbs::Problem p = kpbs::test::random_problem(rng, kWasteGreedyShapes[n % 4]);
    for (kpbs::Algorithm a : {kpbs::Algorithm::oggp, kpbs::Algorithm::heuristic_weights}) {
      const kpbs::Schedule s = kpbs::plan(p, a);
      const double cost = kpbs::validate(p.times, p.k, p.beta, s).cost;
      BOOST_TEST(kpbs::lower_bound(p).eta + total_waste(p, s) == cost, boost::test_tools::tolerance(1e-9));
    }
  }
}

BOOST_AUTO_TEST_CASE(remaining_bound_matches_lower_bound_of_what_is_left) {
  const kpbs::Problem p{kpbs::Matrix{{3, 2, 0, 0}, {2, 0, 2, 0}, {0, 0, 4, 2}, {0, 1.5, 1, 1}}, 4, 3.0};
  kpbs::RemainingWork work(p);
  BOOST_TEST(work.eta() == kpbs::lower_bound(p).eta);
  // Send x1→y1, x2→y3, x3→y4, x4→y2 for 2: what is left is the matrix below.
  kpbs::CandidateStep step{{0, 3, 5, 6}, 2.0};
  const kpbs::Problem rest{kpbs::Matrix{{1, 2, 0, 0}, {2, 0, 0, 0}, {0, 0, 4, 0}, {0, 0, 1, 1}}, 4, 3.0};
  BOOST_TEST(work.eta_after(step) == kpbs::lower_bound(rest).eta);
  const auto transfers = work.apply(step);
  BOOST_TEST(transfers.size() == 4u);
  BOOST_TEST(work.eta() == kpbs::lower_bound(rest).eta);
  BOOST_TEST(work.live().size() == 6u);
}

// The short paper's example (k = 4, β = 3): η = 16 is reached (OGGP needs 22).
BOOST_AUTO_TEST_CASE(short_paper_example_reaches_eta) {
  const kpbs::Problem p{kpbs::Matrix{{3, 2, 0, 0}, {2, 0, 2, 0}, {0, 0, 4, 2}, {0, 1.5, 1, 1}}, 4, 3.0};
  for (const auto& options : kpbs::kVariants) {
    const auto s = kpbs::waste_greedy(p, options);
    BOOST_TEST_REQUIRE(s.has_value());
    const kpbs::Validation v = kpbs::validate(p.times, p.k, p.beta, *s);
    BOOST_TEST(v.ok());
    BOOST_TEST(v.cost == 16.0, boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(every_plan_is_valid_and_no_cheaper_than_eta) {
  std::mt19937_64 rng(12);
  for (const auto& shape : kWasteGreedyShapes) {
    for (int n = 0; n < 60; ++n) {
      const kpbs::Problem p = kpbs::test::random_problem(rng, shape);
      for (const auto& options : kAllVariants) {
        BOOST_TEST_CONTEXT(shape.name << " #" << n) {
          const auto s = kpbs::waste_greedy(p, options);
          BOOST_TEST_REQUIRE(s.has_value());
          const kpbs::Validation v = kpbs::validate(p.times, p.k, p.beta, *s);
          BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
          BOOST_TEST(v.cost >= kpbs::lower_bound(p).eta * (1 - 1e-12));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(gives_up_once_it_cannot_beat_the_bound_it_is_given) {
  std::mt19937_64 rng(13);
  for (int n = 0; n < 100; ++n) {
    const kpbs::Problem p = kpbs::test::random_problem(rng, kWasteGreedyShapes[0]);
    const double eta = kpbs::lower_bound(p).eta;
    if (eta == 0) continue;
    BOOST_TEST(!kpbs::waste_greedy(p, {.give_up_at = eta}).has_value());
    const double full = kpbs::cost(*kpbs::waste_greedy(p), p.beta);
    BOOST_TEST(!kpbs::waste_greedy(p, {.give_up_at = full}).has_value());
    const auto under = kpbs::waste_greedy(p, {.give_up_at = full * 1.001});
    BOOST_TEST_REQUIRE(under.has_value());
    BOOST_TEST(kpbs::cost(*under, p.beta) == full);
  }
}

// first_step_rank r: a valid plan whose first step is none of the first steps of ranks
// below r (distinct candidates), or nullopt once the first step has no r + 1 candidates.
BOOST_AUTO_TEST_CASE(first_step_rank_takes_another_first_step) {
  const auto first_step = [](const kpbs::Schedule& s) {
    std::vector<std::tuple<std::size_t, std::size_t, double>> transfers;
    for (const kpbs::Transfer& t : s.steps.front().transfers) transfers.emplace_back(t.src, t.dst, t.amount);
    std::sort(transfers.begin(), transfers.end());
    return transfers;
  };
  std::mt19937_64 rng(14);
  int ranked = 0;
  for (int n = 0; n < 200; ++n) {
    const kpbs::Problem p = kpbs::test::random_problem(rng, kWasteGreedyShapes[n % 4]);
    if (kpbs::lower_bound(p).eta == 0) continue;
    BOOST_TEST_CONTEXT(kWasteGreedyShapes[n % 4].name << " #" << n) {
      std::vector<decltype(first_step(kpbs::Schedule{}))> seen{first_step(*kpbs::waste_greedy(p))};
      for (int rank = 1; rank <= 3; ++rank) {
        const auto s = kpbs::waste_greedy(p, {.first_step_rank = rank});
        if (!s) break;
        const kpbs::Validation v = kpbs::validate(p.times, p.k, p.beta, *s);
        BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
        BOOST_TEST(v.cost >= kpbs::lower_bound(p).eta * (1 - 1e-12));
        BOOST_TEST((std::find(seen.begin(), seen.end(), first_step(*s)) == seen.end()));
        seen.push_back(first_step(*s));
        ++ranked;
      }
    }
  }
  BOOST_TEST(ranked > 300);
  // One edge: its only first step sends it whole.
  const kpbs::Problem one{kpbs::Matrix{{5}}, 1, 1.0};
  BOOST_TEST(kpbs::waste_greedy(one, {.first_step_rank = 0}).has_value());
  BOOST_TEST(!kpbs::waste_greedy(one, {.first_step_rank = 1}).has_value());
}

BOOST_AUTO_TEST_CASE(nothing_to_send_gives_no_step) {
  const kpbs::Problem p{kpbs::Matrix(3, 4), 2, 1.0};
  BOOST_TEST(kpbs::waste_greedy(p)->steps.empty());
}

BOOST_AUTO_TEST_SUITE_END()
