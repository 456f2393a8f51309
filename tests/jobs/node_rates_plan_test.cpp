// Plans on each node's own rate (issue 41): what auto chooses, the fluid plan's flows and
// predictions against T*, and the papers' plans paced at each pair's rate.
#include "coordinator/jobs/plan_compiler.h"
#include "coordinator/schedule/kpbs/fluid.h"

#include <boost/test/unit_test.hpp>

#include <map>
#include <string>

namespace bj = baton::jobs;
namespace kpbs = baton::schedule::kpbs;

namespace {

// 4 producers to 3 consumers, each pair owing `bytes` (the star's handoff, as transfers).
struct Handoff {
  bj::Clusters clusters;
  std::vector<bj::TransferSpec> transfers;
};

Handoff handoff(std::uint64_t bytes) {
  Handoff h;
  h.clusters.senders = {"p0", "p1", "p2", "p3"};
  h.clusters.receivers = {"c0", "c1", "c2"};
  for (const std::string& p : h.clusters.senders) {
    for (const std::string& c : h.clusters.receivers) {
      h.transfers.push_back({.src_node = p,
                             .src_file = "f",
                             .src_offset = 0,
                             .length = bytes,
                             .dst_node = c,
                             .dst_file = "f." + p,
                             .dst_offset = 0});
    }
  }
  return h;
}

kpbs::Platform star(double step_startup) {
  return {.sender_rate = 50e6,
          .receiver_rate = 50e6,
          .backbone_rate = 137.5e6,
          .step_startup = step_startup,
          .sender_rates = {50e6, 12.5e6, 50e6, 25e6},
          .receiver_rates = {50e6, 25e6, 12.5e6}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(node_rates_plan)

BOOST_AUTO_TEST_CASE(auto_picks_fluid_on_unequal_links) {
  const Handoff h = handoff(10'000'000);
  const bj::CompiledPlan plan = bj::compile_plan(h.clusters, h.transfers, star(0.002), kpbs::Algorithm::automatic);
  BOOST_TEST(plan.algorithm == "fluid");
  BOOST_REQUIRE(plan.bandwidth_bound_seconds.has_value());
  BOOST_TEST(*plan.bandwidth_bound_seconds == 3.2, boost::test_tools::tolerance(1e-12));  // 40 MB at 12.5 MB/s
  BOOST_TEST(plan.predicted_seconds == 3.202, boost::test_tools::tolerance(1e-12));       // one step: β + T*
  BOOST_TEST(plan.candidates.size() == 6u);
  BOOST_TEST(plan.candidates.front().first == "fluid");
  for (std::size_t c = 1; c < plan.candidates.size(); ++c) {
    BOOST_TEST(plan.candidates[c - 1].second <= plan.candidates[c].second);
  }
  // Every flow at its share, so that each node's flows together make its rate or less.
  std::map<std::size_t, double> sent, received;
  for (const bj::Flow& f : plan.steps.at(0).flows) {
    BOOST_TEST(f.rate == 10e6 / 3.2, boost::test_tools::tolerance(1e-12));
    sent[f.sender] += f.rate;
    received[f.receiver] += f.rate;
  }
  const kpbs::Platform p = star(0.002);
  for (const auto& [i, r] : sent) BOOST_TEST(r <= p.sender_rates[i] * (1 + 1e-12));
  for (const auto& [j, r] : received) BOOST_TEST(r <= p.receiver_rates[j] * (1 + 1e-12));
  BOOST_TEST(plan.k >= 12);  // an agent's step may hold every flow it is in
}

BOOST_AUTO_TEST_CASE(auto_keeps_the_papers_choice_on_a_uniform_platform) {
  const Handoff h = handoff(10'000'000);
  kpbs::Platform uniform = star(0.002);
  uniform.sender_rates.clear();
  uniform.receiver_rates.clear();
  uniform.backbone_rate = 100e6;
  const bj::CompiledPlan plan = bj::compile_plan(h.clusters, h.transfers, uniform, kpbs::Algorithm::automatic);
  BOOST_TEST(plan.algorithm != "fluid");
  BOOST_TEST(plan.candidates.size() == 5u);
  for (const auto& [name, seconds] : plan.candidates) BOOST_TEST(name != "fluid");
  // The chosen is the papers' plan of least predicted time, planned as by name.
  BOOST_TEST(plan.algorithm == plan.candidates.front().first);
  const bj::CompiledPlan named =
      bj::compile_plan(h.clusters, h.transfers, uniform, *kpbs::parse_algorithm(plan.algorithm));
  BOOST_TEST(named.predicted_seconds == plan.predicted_seconds);
  BOOST_TEST(named.steps.size() == plan.steps.size());
  for (const bj::StepPlan& s : plan.steps) {
    for (const bj::Flow& f : s.flows) BOOST_TEST(f.rate == 0.0);  // paced at the plan's d, as before
  }
}

// The papers' plan on the star: each flow paced at its pair's rate, a step lasting β + its
// longest flow at that rate, and T* beside it in the plan.
BOOST_AUTO_TEST_CASE(papers_plan_paces_each_pair_at_its_rate) {
  const Handoff h = handoff(10'000'000);
  const kpbs::Platform p = star(0.002);
  const bj::CompiledPlan plan = bj::compile_plan(h.clusters, h.transfers, p, kpbs::Algorithm::oggp_plus);
  BOOST_TEST(plan.algorithm == "oggp-plus");
  BOOST_TEST(plan.lower_bound_seconds.has_value());
  BOOST_TEST(*plan.bandwidth_bound_seconds == 3.2, boost::test_tools::tolerance(1e-12));
  double predicted = 0;
  for (const bj::StepPlan& s : plan.steps) {
    double longest = 0;
    for (const bj::Flow& f : s.flows) {
      BOOST_TEST(f.rate == std::min(p.sender_rates[f.sender], p.receiver_rates[f.receiver]));
      longest = std::max(longest, static_cast<double>(f.bytes) / f.rate);
    }
    BOOST_TEST(s.predicted_seconds == 0.002 + longest, boost::test_tools::tolerance(1e-12));
    predicted += s.predicted_seconds;
  }
  BOOST_TEST(plan.predicted_seconds == predicted, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(plan.predicted_seconds >= *plan.bandwidth_bound_seconds);
}

// More peers than the connection limit: the fluid plan splits into steps, each within the
// limit, and costs at least T* plus β a step.
BOOST_AUTO_TEST_CASE(fluid_plan_splits_past_the_connection_limit) {
  bj::Clusters c;
  std::vector<bj::TransferSpec> transfers;
  for (int i = 0; i < 20; ++i) c.senders.push_back("s" + std::to_string(i));
  c.receivers = {"r0", "r1"};
  for (const std::string& s : c.senders) {
    for (const std::string& r : c.receivers) {
      transfers.push_back({.src_node = s,
                           .src_file = "f",
                           .src_offset = 0,
                           .length = 1'000'000,
                           .dst_node = r,
                           .dst_file = "g." + s,
                           .dst_offset = 0});
    }
  }
  const kpbs::Platform p{.sender_rate = 10e6,
                         .receiver_rate = 10e6,
                         .backbone_rate = 1e9,
                         .step_startup = 0.001,
                         .sender_rates = {},
                         .receiver_rates = {40e6, 20e6}};
  const bj::CompiledPlan plan = bj::compile_plan(c, transfers, p, kpbs::Algorithm::fluid);
  BOOST_TEST(plan.steps.size() == 2u);  // each receiver has 20 peers, 16 at most at once
  for (const bj::StepPlan& s : plan.steps) {
    std::map<std::size_t, int> per_receiver;
    for (const bj::Flow& f : s.flows) ++per_receiver[f.receiver];
    for (const auto& [r, n] : per_receiver) BOOST_TEST(n <= static_cast<int>(kpbs::kFluidConnectionLimit));
  }
  BOOST_TEST(*plan.bandwidth_bound_seconds == 1.0, boost::test_tools::tolerance(1e-12));  // 20 MB at 20 MB/s
  BOOST_TEST(plan.predicted_seconds >= 1.0 + 2 * 0.001);
}

BOOST_AUTO_TEST_SUITE_END()
