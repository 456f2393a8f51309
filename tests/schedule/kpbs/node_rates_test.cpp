// Nodes of their own rates (issue 41): the bound T*, the fluid plan against it, and the
// papers' algorithms on each pair's own rate, every plan checked by the validator.
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/bandwidth_bound.h"
#include "coordinator/schedule/kpbs/fluid.h"
#include "coordinator/schedule/kpbs/platform.h"
#include "coordinator/schedule/kpbs/validator.h"
#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <random>
#include <vector>

namespace kpbs = baton::schedule::kpbs;

namespace {

// The star of bench/coupled_handoff_star.sh in bytes/s: producers at 400, 100, 400 and
// 200 Mbit/s, consumers at 400, 200 and 100.
kpbs::NodeRates star() { return {{50e6, 12.5e6, 50e6, 25e6}, {50e6, 25e6, 12.5e6}, 1e12}; }

kpbs::ValidationOptions fluid_rules(const kpbs::NodeRates& rates, std::size_t limit) {
  kpbs::ValidationOptions o;
  o.kpbs_rules = false;
  o.node_rates = &rates;
  o.shared = true;
  o.connection_limit = limit;
  return o;
}

kpbs::Matrix random_matrix(std::mt19937_64& rng, std::size_t n1, std::size_t n2) {
  std::uniform_int_distribution<long> bytes(1, 80'000'000);
  std::bernoulli_distribution empty(0.2);
  kpbs::Matrix m(n1, n2);
  for (std::size_t i = 0; i < n1; ++i) {
    for (std::size_t j = 0; j < n2; ++j) m.at(i, j) = empty(rng) ? 0 : static_cast<double>(bytes(rng));
  }
  return m;
}

// Every node's flows together within its rate: each flow at amount / duration.
void check_rates_fit(const kpbs::Schedule& schedule, const kpbs::NodeRates& rates) {
  for (const kpbs::Step& step : schedule.steps) {
    std::vector<double> out(rates.send.size(), 0), in(rates.receive.size(), 0);
    double all = 0;
    for (const kpbs::Transfer& t : step.transfers) {
      out[t.src] += t.amount / step.duration;
      in[t.dst] += t.amount / step.duration;
      all += t.amount / step.duration;
    }
    for (std::size_t i = 0; i < out.size(); ++i) BOOST_TEST(out[i] <= rates.send[i] * (1 + 1e-12));
    for (std::size_t j = 0; j < in.size(); ++j) BOOST_TEST(in[j] <= rates.receive[j] * (1 + 1e-12));
    BOOST_TEST(all <= rates.backbone * (1 + 1e-12));
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(node_rates)

// By hand: a 120 MB field from 4 producers to 3 consumers in equal parts of 10 MB. Each
// producer sends 30 MB: 30/50 = 0.6 s, 30/12.5 = 2.4 s (the slowest sender); each consumer
// takes 40 MB: 40/12.5 = 3.2 s. T* = 3.2 s.
BOOST_AUTO_TEST_CASE(bound_of_the_star_by_hand) {
  kpbs::Matrix m(4, 3);
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 3; ++j) m.at(i, j) = 10e6;
  }
  BOOST_TEST(kpbs::bandwidth_bound(m, star()) == 3.2, boost::test_tools::tolerance(1e-12));
  // A backbone of 30 MB/s binds instead: 120 MB / 30 MB/s = 4 s.
  kpbs::NodeRates narrow = star();
  narrow.backbone = 30e6;
  BOOST_TEST(kpbs::bandwidth_bound(m, narrow) == 4.0, boost::test_tools::tolerance(1e-12));
  // One sender owing everything: its link binds, 120 MB / 12.5 MB/s = 9.6 s on producer 1.
  kpbs::Matrix one(4, 3);
  for (std::size_t j = 0; j < 3; ++j) one.at(1, j) = 40e6;
  BOOST_TEST(kpbs::bandwidth_bound(one, star()) == 9.6, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(platform_gives_each_node_its_rate) {
  kpbs::Platform p{.sender_rate = 1e6,
                   .receiver_rate = 2e6,
                   .backbone_rate = 9e6,
                   .step_startup = 0.001,
                   .sender_rates = {1e6, 3e6},
                   .receiver_rates = {}};
  const kpbs::NodeRates r = kpbs::node_rates(p, 2, 3);
  BOOST_TEST(r.send == (std::vector<double>{1e6, 3e6}));
  BOOST_TEST(r.receive == (std::vector<double>{2e6, 2e6, 2e6}));
  BOOST_TEST(kpbs::pair_rate(r, 1, 0) == 2e6);
  BOOST_TEST(kpbs::has_node_rates(p));
  BOOST_TEST(kpbs::flow_rate(p) == 1e6);
  BOOST_TEST(kpbs::derive_k(p, 2, 3) == 2);  // ⌊9 / 2⌋ = 4 flows of the fastest pair, but 2 senders
  BOOST_CHECK_THROW(kpbs::node_rates(p, 3, 3), baton::error::InvalidInput);
  p.sender_rates = {1e6, 1e6};
  BOOST_TEST(!kpbs::has_node_rates(p));
}

// One step, every pair at once, ending at T*: the star's 4 x 3 fits the limit.
BOOST_AUTO_TEST_CASE(fluid_plan_of_the_star_runs_in_t_star) {
  kpbs::Matrix m(4, 3);
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 3; ++j) m.at(i, j) = 10e6;
  }
  const kpbs::NodeRates rates = star();
  const kpbs::Schedule s = kpbs::fluid(m, rates);
  BOOST_REQUIRE(s.steps.size() == 1u);
  BOOST_TEST(s.steps[0].transfers.size() == 12u);
  BOOST_TEST(s.steps[0].duration == 3.2, boost::test_tools::tolerance(1e-12));
  const kpbs::Validation v = kpbs::validate(m, 1, 0.002, s, fluid_rules(rates, kpbs::kFluidConnectionLimit));
  BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
  BOOST_TEST(v.cost == 3.202, boost::test_tools::tolerance(1e-12));
  check_rates_fit(s, rates);
}

// Random shapes and rates, limits that force several steps: every byte once, no node above
// its rate, at most `limit` flows a node, and one step exactly at T* when nothing splits.
BOOST_AUTO_TEST_CASE(fluid_plans_keep_every_rate_and_the_limit) {
  std::mt19937_64 rng(41);
  std::uniform_int_distribution<int> nodes(1, 12);
  std::uniform_real_distribution<double> rate(1e6, 100e6);
  for (int n = 0; n < 300; ++n) {
    const auto n1 = static_cast<std::size_t>(nodes(rng)), n2 = static_cast<std::size_t>(nodes(rng));
    kpbs::NodeRates rates;
    for (std::size_t i = 0; i < n1; ++i) rates.send.push_back(rate(rng));
    for (std::size_t j = 0; j < n2; ++j) rates.receive.push_back(rate(rng));
    rates.backbone = n % 3 == 0 ? rate(rng) : 1e12;
    const kpbs::Matrix m = random_matrix(rng, n1, n2);
    const std::size_t limit = 1 + static_cast<std::size_t>(n % 6);
    const kpbs::Schedule s = kpbs::fluid(m, rates, limit);
    const kpbs::Validation v = kpbs::validate(m, 1, 0.001, s, fluid_rules(rates, limit));
    BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
    check_rates_fit(s, rates);
    const double bound = kpbs::bandwidth_bound(m, rates);
    double useful = 0;
    for (const kpbs::Step& step : s.steps) useful += step.duration;
    BOOST_TEST(useful >= bound * (1 - 1e-12));
    if (s.steps.size() == 1) BOOST_TEST(useful == bound, boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(validator_catches_a_fluid_step_above_a_rate) {
  kpbs::Matrix m(2, 1);
  m.at(0, 0) = 10e6;
  m.at(1, 0) = 10e6;
  const kpbs::NodeRates rates{{10e6, 10e6}, {10e6}, 1e12};
  kpbs::Schedule s = kpbs::fluid(m, rates);
  BOOST_TEST(s.steps.at(0).duration == 2.0);
  s.steps[0].duration = 1.5;  // the receiver would take 20 MB at 13.3 MB/s
  const kpbs::Validation v = kpbs::validate(m, 1, 0.001, s, fluid_rules(rates, 16));
  BOOST_TEST(!v.ok());
  const kpbs::Validation over = kpbs::validate(m, 1, 0.001, kpbs::fluid(m, rates), fluid_rules(rates, 1));
  BOOST_TEST(!over.ok());  // receiver 0 has two flows, the limit is 1
  BOOST_CHECK_THROW(kpbs::fluid(m, rates, 0), baton::error::InvalidInput);
}

// The papers' algorithms on each pair's own rate: valid KPBS schedules whose steps last
// their longest flow at that flow's rate, every byte once.
BOOST_AUTO_TEST_CASE(papers_algorithms_on_each_pairs_rate) {
  std::mt19937_64 rng(7);
  for (int n = 0; n < 40; ++n) {
    kpbs::PlatformProblem pp;
    pp.platform = {.sender_rate = 1,
                   .receiver_rate = 1,
                   .backbone_rate = 150e6,
                   .step_startup = 0.002,
                   .sender_rates = {50e6, 12.5e6, 50e6, 25e6},
                   .receiver_rates = {50e6, 25e6, 12.5e6}};
    pp.bytes = random_matrix(rng, 4, 3);
    const kpbs::NodeRates rates = kpbs::node_rates(pp.platform, 4, 3);
    const kpbs::Problem p = kpbs::normalize(pp);
    BOOST_TEST(p.k == 3);  // ⌊150 / 50⌋
    BOOST_TEST(p.times.at(0, 2) == pp.bytes.at(0, 2) / 12.5e6);
    for (const auto algorithm : {kpbs::Algorithm::oggp, kpbs::Algorithm::oggp_plus, kpbs::Algorithm::ggp,
                                 kpbs::Algorithm::heuristic_weights, kpbs::Algorithm::heuristic_degrees}) {
      const kpbs::Schedule s = kpbs::to_bytes(kpbs::plan(p, algorithm), pp);
      kpbs::ValidationOptions o;
      o.node_rates = &rates;
      o.tolerance = 0;
      const kpbs::Validation v = kpbs::validate(pp.bytes, p.k, p.beta, s, o);
      BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
    }
  }
}

BOOST_AUTO_TEST_CASE(fluid_and_auto_are_not_planned_on_a_normalized_problem) {
  kpbs::Problem p;
  p.times = kpbs::Matrix{{1, 2}};
  BOOST_CHECK_THROW(kpbs::plan(p, kpbs::Algorithm::fluid), baton::error::InvalidInput);
  BOOST_CHECK_THROW(kpbs::plan(p, kpbs::Algorithm::automatic), baton::error::InvalidInput);
  BOOST_TEST(!kpbs::parse_algorithm("fluid").has_value());  // `batonctl plan` does not take it
  BOOST_TEST((kpbs::parse_job_algorithm("fluid") == kpbs::Algorithm::fluid));
  BOOST_TEST((kpbs::parse_job_algorithm("auto") == kpbs::Algorithm::automatic));
  BOOST_TEST((kpbs::parse_job_algorithm("oggp") == kpbs::Algorithm::oggp));
  BOOST_TEST(kpbs::name(kpbs::Algorithm::automatic) == "auto");
}

BOOST_AUTO_TEST_SUITE_END()
