// Drift against steps computed in the test: a run of steps off the model in one direction
// is drift, a single slow step or a mixed run is not; the estimate names the backbone when
// every flow of wide steps slowed alike (D from the fluid network's own aggregate), the
// nodes when only some did, and β when steps beat their paced prediction.
#include "coordinator/calibration/drift.h"
#include "coordinator/calibration/calibration.h"
#include "tests/calibration/fluid_network.h"

#include <boost/test/unit_test.hpp>

namespace cal = baton::calibration;
using cal::test::FluidFlow;
using cal::test::FluidNetwork;

namespace {

cal::StepSample on_model(std::uint32_t step, double predicted, double ratio) {
  cal::StepSample s;
  s.step = step;
  s.predicted = predicted;
  s.measured = predicted * ratio;
  return s;
}

// A KPBS step of `flows` flows of `bytes` on `net` (pairs s_i → r_i), as the driver samples
// it: the step's time, and each receiver's time for its flow (all flows start together).
cal::StepSample run_step(const FluidNetwork& net, std::uint32_t index, int flows, double bytes, double predicted) {
  std::vector<FluidFlow> step;
  for (int i = 0; i < flows; ++i) step.push_back({static_cast<std::size_t>(i), static_cast<std::size_t>(i), bytes});
  cal::StepSample s;
  s.step = index;
  s.predicted = predicted;
  s.measured = net.step_seconds(step);
  s.bytes = static_cast<std::uint64_t>(bytes) * static_cast<std::uint64_t>(flows);
  s.longest_flow = static_cast<std::uint64_t>(bytes);
  // Fair sharing of equal flows: each ends when the step's transfer does (less β, which the
  // receivers' own clocks do not see).
  for (int i = 0; i < flows; ++i) s.flows.push_back({static_cast<std::uint64_t>(bytes), s.measured - net.beta});
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(drift)

BOOST_AUTO_TEST_CASE(a_single_slow_step_is_not_drift_three_in_a_row_are) {
  cal::DriftDetector detector;
  BOOST_TEST(!detector.observe(on_model(0, 1.0, 1.0)));
  BOOST_TEST(!detector.observe(on_model(1, 1.0, 3.0)));   // one slow step
  BOOST_TEST(!detector.observe(on_model(2, 1.0, 1.05)));  // within 15 %: the run is broken
  BOOST_TEST(!detector.observe(on_model(3, 1.0, 1.2)));
  BOOST_TEST(!detector.observe(on_model(4, 1.0, 1.3)));
  const auto drift = detector.observe(on_model(5, 1.0, 1.4));
  BOOST_REQUIRE(drift.has_value());
  BOOST_TEST((drift->direction == cal::Direction::slower));
  BOOST_TEST(drift->steps.size() == 3u);
  BOOST_TEST(drift->ratio == 1.3, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(cal::describe(*drift, {}) == "steps 3-5 ran 1.3x the model's time (more than 15 % slower, 3 in a row)");
  // It starts counting afresh.
  BOOST_TEST(!detector.observe(on_model(6, 1.0, 1.4)));
}

BOOST_AUTO_TEST_CASE(slower_and_faster_steps_do_not_make_one_run) {
  cal::DriftDetector detector;
  BOOST_TEST(!detector.observe(on_model(0, 1.0, 1.5)));
  BOOST_TEST(!detector.observe(on_model(1, 1.0, 0.5)));
  BOOST_TEST(!detector.observe(on_model(2, 1.0, 1.5)));
  BOOST_TEST(!detector.observe(on_model(3, 1.0, 0.5)));
  BOOST_TEST(!detector.observe(on_model(4, 1.0, 0.6)));
  const auto drift = detector.observe(on_model(5, 1.0, 0.7));
  BOOST_REQUIRE(drift.has_value());
  BOOST_TEST((drift->direction == cal::Direction::faster));
}

BOOST_AUTO_TEST_CASE(the_threshold_and_run_length_are_settings_and_tiny_steps_never_drift) {
  cal::DriftDetector strict({.threshold = 0.05, .steps = 2, .min_seconds = 0.01});
  BOOST_TEST(!strict.observe(on_model(0, 1.0, 1.1)));
  BOOST_TEST(strict.observe(on_model(1, 1.0, 1.1)).has_value());
  cal::DriftDetector detector;
  for (std::uint32_t s = 0; s < 10; ++s) BOOST_TEST(!detector.observe(on_model(s, 0.002, 3.0)));  // 4 ms late
}

BOOST_AUTO_TEST_CASE(a_backbone_cut_to_half_is_found_as_the_backbone_with_its_new_rate) {
  // Planned for k = 5 on D = 5 d; the backbone falls to D/2: five flows share 2.5 d.
  const double d = 2.5e6, beta = 0.01, bytes = 1e6;
  FluidNetwork net{std::vector<double>(10, d), std::vector<double>(10, d), 5 * d, beta};
  const cal::Model model{.d = d, .D = 5 * d, .beta = beta};
  const double predicted = beta + bytes / d;
  net.backbone = 2.5 * d;
  cal::DriftDetector detector;
  std::optional<cal::Drift> drift;
  for (std::uint32_t s = 0; s < 3; ++s) drift = detector.observe(run_step(net, s, 5, bytes, predicted));
  BOOST_REQUIRE(drift.has_value());
  const cal::Estimate e = cal::estimate(model, *drift, {});
  BOOST_TEST((e.cause == cal::Cause::backbone));
  BOOST_TEST(e.model.D == 2.5 * d, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(e.model.d == d);
  BOOST_TEST(cal::k_of(e.model.D, e.model.d) == 2);
}

BOOST_AUTO_TEST_CASE(one_slow_node_is_found_as_the_nodes_with_its_rate) {
  const double d = 2.5e6, beta = 0.01, bytes = 1e6;
  FluidNetwork net{std::vector<double>(10, d), std::vector<double>(10, d), 5 * d, beta};
  net.senders[1] = d / 3;
  cal::DriftDetector detector;
  std::optional<cal::Drift> drift;
  for (std::uint32_t s = 0; s < 3; ++s) {
    cal::StepSample sample = run_step(net, s, 5, bytes, beta + bytes / d);
    sample.flows[1].seconds = bytes / (d / 3);  // its flow alone ran long; the others at d
    for (std::size_t f : {0, 2, 3, 4}) sample.flows[f].seconds = bytes / d;
    drift = detector.observe(sample);
  }
  BOOST_REQUIRE(drift.has_value());
  const cal::Estimate e = cal::estimate({.d = d, .D = 5 * d, .beta = beta}, *drift, {});
  BOOST_TEST((e.cause == cal::Cause::nodes));
  BOOST_TEST(e.model.d == d / 3, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(e.model.D == 5 * d);
}

BOOST_AUTO_TEST_CASE(every_link_slowed_alike_is_taken_for_the_backbone_then_corrected_by_the_narrower_steps) {
  const double d = 2.5e6, beta = 0.01, bytes = 1e6;
  FluidNetwork net{std::vector<double>(10, d / 2), std::vector<double>(10, d / 2), 5 * d, beta};  // every node at d/2
  const cal::Model model{.d = d, .D = 5 * d, .beta = beta};
  cal::DriftDetector detector;
  std::optional<cal::Drift> first, second;
  for (std::uint32_t s = 0; s < 3; ++s) first = detector.observe(run_step(net, s, 5, bytes, beta + bytes / d));
  BOOST_REQUIRE(first.has_value());
  const cal::Estimate guess = cal::estimate(model, *first, {});
  BOOST_TEST((guess.cause == cal::Cause::backbone));
  BOOST_TEST(guess.model.D == 2.5 * d, boost::test_tools::tolerance(1e-9));
  // The plan made on that guess: k = 2 flows at d, which still run at d/2.
  for (std::uint32_t s = 3; s < 6; ++s) second = detector.observe(run_step(net, s, 2, bytes, beta + bytes / d));
  BOOST_REQUIRE(second.has_value());
  const cal::Estimate fixed = cal::estimate(guess.model, *second, {}, &guess);
  BOOST_TEST((fixed.cause == cal::Cause::nodes));
  BOOST_TEST(fixed.model.d == d / 2, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(fixed.model.D == 5 * d);  // the backbone as it was before the wrong guess
  BOOST_TEST(cal::k_of(fixed.model.D, fixed.model.d) == 10);
}

BOOST_AUTO_TEST_CASE(the_same_seconds_late_on_big_and_small_steps_is_a_cost_of_every_step) {
  // Every step pays 12 ms the model left out (the receivers' disk syncs): within 15 % on
  // the big steps, more on the small ones at the end of the schedule.
  cal::DriftDetector detector;
  std::optional<cal::Drift> drift;
  std::uint32_t index = 0;
  for (const double predicted : {0.19, 0.18, 0.17, 0.15, 0.06, 0.05, 0.055}) {
    BOOST_TEST(!drift.has_value());
    drift = detector.observe(on_model(index++, predicted, (predicted + 0.012) / predicted));
  }
  BOOST_REQUIRE(drift.has_value());
  BOOST_TEST(drift->before.size() == 3u);
  const cal::Estimate e = cal::estimate({.d = 1.7e6, .D = 12e6, .beta = 0.0001}, *drift, {});
  BOOST_TEST((e.cause == cal::Cause::startup));
  BOOST_TEST(e.model.beta == 0.0121, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(e.model.D == 12e6);
}

BOOST_AUTO_TEST_CASE(steps_faster_than_paced_flows_allow_mean_a_smaller_start_up) {
  cal::DriftDetector detector;
  std::optional<cal::Drift> drift;
  // Predicted with β = 0.1 s; the steps really start in 0.02 s.
  for (std::uint32_t s = 0; s < 3; ++s) drift = detector.observe(on_model(s, 0.1 + 0.2, (0.02 + 0.2) / 0.3));
  BOOST_REQUIRE(drift.has_value());
  const cal::Estimate e = cal::estimate({.d = 1e6, .D = 3e6, .beta = 0.1}, *drift, {});
  BOOST_TEST((e.cause == cal::Cause::startup));
  BOOST_TEST(e.model.beta == 0.02, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(e.model.d == 1e6);
  BOOST_TEST(e.model.D == 3e6);
}

BOOST_AUTO_TEST_SUITE_END()
