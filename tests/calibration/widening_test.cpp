// Trials of a wider backbone: when one is due (after steps on the model, waiting longer
// after each failed one), and how one is judged against steps computed on the fluid
// network of fluid_network.h: kept when its steps run as its model says, otherwise the
// backbone the steps show (the network's own), or the one before when they show no more.
#include "coordinator/calibration/widening.h"
#include "tests/calibration/fluid_network.h"

#include <boost/test/unit_test.hpp>

namespace cal = baton::calibration;
using cal::test::FluidFlow;
using cal::test::FluidNetwork;

namespace {

// A step of `flows` flows of `bytes` (pairs s_i → r_i) on `net`, predicted on `model`.
cal::StepSample step_on(const FluidNetwork& net, const cal::Model& model, std::uint32_t index, int flows,
                        double bytes) {
  std::vector<FluidFlow> step;
  for (int i = 0; i < flows; ++i) step.push_back({static_cast<std::size_t>(i), static_cast<std::size_t>(i), bytes});
  cal::StepSample s;
  s.step = index;
  s.predicted = model.beta + std::max(bytes / model.d, flows * bytes / model.D);
  s.measured = net.step_seconds(step);
  s.bytes = static_cast<std::uint64_t>(bytes * flows);
  s.longest_flow = static_cast<std::uint64_t>(bytes);
  return s;
}

// Ten nodes a side at 1 MB/s; the model before the trial: D = 5 MB/s (k = 5), β = 10 ms.
const cal::Model kBefore{.d = 1e6, .D = 5e6, .beta = 0.01};

FluidNetwork network(double backbone) {
  return FluidNetwork{std::vector<double>(10, 1e6), std::vector<double>(10, 1e6), backbone, 0.01};
}

std::vector<cal::StepSample> trial_steps(const FluidNetwork& net, const cal::Model& trial) {
  std::vector<cal::StepSample> steps;
  for (std::uint32_t i = 0; i < 3; ++i) steps.push_back(step_on(net, trial, 20 + i, 10, 4e6));
  return steps;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(widening)

BOOST_AUTO_TEST_CASE(a_trial_is_due_after_steps_on_the_model_and_waits_longer_after_each_failure) {
  cal::WideningSchedule schedule(cal::DriftOptions{.widen_after = 3});
  BOOST_TEST(!schedule.due(true));
  BOOST_TEST(!schedule.due(true));
  BOOST_TEST(!schedule.due(false));  // a step off the model starts the count again
  BOOST_TEST(!schedule.due(true));
  BOOST_TEST(!schedule.due(true));
  BOOST_TEST(schedule.due(true));
  schedule.trial_failed();
  BOOST_TEST(schedule.wait() == 6);
  schedule.trial_failed();
  schedule.trial_failed();
  schedule.trial_failed();
  BOOST_TEST(schedule.wait() == 12);  // at most four times the first wait
  for (int i = 0; i < 11; ++i) BOOST_TEST(!schedule.due(true));
  BOOST_TEST(schedule.due(true));
  schedule.trial_kept();
  BOOST_TEST(schedule.wait() == 3);
  schedule.plan_changed();
  BOOST_TEST(!schedule.due(true));
}

BOOST_AUTO_TEST_CASE(no_trial_is_ever_due_when_they_are_turned_off_or_stopped) {
  cal::WideningSchedule schedule(cal::DriftOptions{.widen_after = 0});
  for (int i = 0; i < 100; ++i) BOOST_TEST(!schedule.due(true));
  // A job whose failed trials spent their budget (the driver stops its schedule).
  cal::WideningSchedule stopped(cal::DriftOptions{.widen_after = 3});
  stopped.stop();
  stopped.trial_kept();
  stopped.plan_changed();
  for (int i = 0; i < 100; ++i) BOOST_TEST(!stopped.due(true));
}

BOOST_AUTO_TEST_CASE(a_trial_whose_steps_run_on_its_model_is_kept) {
  const cal::DriftOptions options;
  const cal::Model trial = cal::widened(kBefore, options);
  BOOST_TEST(trial.D == 10e6);
  BOOST_TEST(trial.d == kBefore.d);
  // The backbone did double: ten flows at 1 MB/s each.
  const cal::TrialVerdict verdict = cal::judge_trial(trial_steps(network(10e6), trial), trial, kBefore, options);
  BOOST_TEST(verdict.kept);
  BOOST_TEST(verdict.D == trial.D);
  BOOST_TEST(verdict.ratio == 1.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(verdict.cost == 0.0);
}

BOOST_AUTO_TEST_CASE(a_trial_on_a_backbone_that_did_not_grow_goes_back_to_the_model_before_it) {
  const cal::DriftOptions options;
  const cal::Model trial = cal::widened(kBefore, options);
  // Ten flows share 5 MB/s: 8.01 s a step where the trial's model said 4.01 s.
  const cal::TrialVerdict verdict = cal::judge_trial(trial_steps(network(5e6), trial), trial, kBefore, options);
  BOOST_TEST(!verdict.kept);
  BOOST_TEST(verdict.ratio == 8.01 / 4.01, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(verdict.D == kBefore.D);  // exactly: the plan goes back to what it was
  BOOST_TEST(verdict.why ==
             "the trial's steps 20-22 ran 2x the model's time: the backbone carries 5 MB/s, not 10; "
             "planning on 5 MB/s");
  // Its steps moved their bytes through the whole backbone: as long as the plan before would
  // have taken for them, so the failure cost nothing.
  BOOST_TEST(verdict.cost == 0.0, boost::test_tools::tolerance(1e-9));
}

// Seen on the Fig. 16 cluster at k = 3: a trial's steps of twice the flows the backbone
// carries ran 4-5x their model, where sharing it would have made 2x (a retransmission
// timeout of 200 ms in steps of 80 ms). Its cost is the time beyond the plan before's.
BOOST_AUTO_TEST_CASE(a_failed_trial_costs_the_time_its_steps_took_beyond_the_same_flows_on_the_model_before) {
  const cal::DriftOptions options;
  const cal::Model trial = cal::widened(kBefore, options);
  std::vector<cal::StepSample> steps = trial_steps(network(5e6), trial);
  steps[1].measured += 0.2;
  const cal::TrialVerdict verdict = cal::judge_trial(steps, trial, kBefore, options);
  BOOST_TEST(!verdict.kept);
  BOOST_TEST(verdict.cost == 0.2, boost::test_tools::tolerance(1e-9));
  // A kept trial costs nothing, however its steps ran.
  BOOST_TEST(cal::judge_trial(trial_steps(network(9e6), trial), trial, kBefore, options).cost == 0.0);
}

BOOST_AUTO_TEST_CASE(a_trial_on_a_backbone_that_grew_less_than_tried_plans_on_what_its_steps_showed) {
  const cal::DriftOptions options;
  const cal::Model trial = cal::widened(kBefore, options);
  const cal::TrialVerdict verdict = cal::judge_trial(trial_steps(network(7.5e6), trial), trial, kBefore, options);
  BOOST_TEST(!verdict.kept);
  BOOST_TEST(verdict.D == 7.5e6, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(a_trial_that_ran_slow_by_less_than_the_threshold_is_kept) {
  const cal::DriftOptions options;
  const cal::Model trial = cal::widened(kBefore, options);
  // 9 MB/s: 4.45 s against 4.01 s, 11 % slow, within the 15 % drift allows.
  const cal::TrialVerdict verdict = cal::judge_trial(trial_steps(network(9e6), trial), trial, kBefore, options);
  BOOST_TEST(verdict.kept);
}

// Whether a due trial runs: only within the budget of failed trials, and only when the
// wider plan has more flows a step, enough steps to judge it and a gain past the threshold.
BOOST_AUTO_TEST_CASE(a_due_trial_runs_only_when_it_can_gain_and_the_budget_allows) {
  const cal::DriftOptions options{.threshold = 0.1, .widen_judge_steps = 2, .widen_budget = 0.1};
  const cal::RestOfPlan now{.k = 5, .steps = 10, .seconds = 100};
  const cal::RestOfPlan wider{.k = 10, .steps = 6, .seconds = 60};
  BOOST_TEST((cal::consider_trial(0, 500, now, wider, "", options).action == cal::TrialAction::run));
  const cal::TrialDecision spent = cal::consider_trial(51, 500, now, wider, "", options);
  BOOST_TEST((spent.action == cal::TrialAction::stop));
  BOOST_TEST(spent.why ==
             "failed trials cost it 51 s, more than their budget of 50 s (widen_budget 0.1 of the job's predicted 500 "
             "s); no more trials");
  const auto waits = [&](const std::optional<cal::RestOfPlan>& plan, const std::string& why) {
    const cal::TrialDecision d = cal::consider_trial(0, 500, now, plan, "no schedule", options);
    BOOST_TEST((d.action == cal::TrialAction::wait_longer));
    BOOST_TEST(d.why == why);
  };
  waits(std::nullopt, "the planner refused it: no schedule");
  waits(cal::RestOfPlan{.k = 5, .steps = 6, .seconds = 60}, "it would plan no more flows a step (k = 5)");
  waits(cal::RestOfPlan{.k = 10, .steps = 2, .seconds = 60}, "too few steps left to judge it");
  waits(cal::RestOfPlan{.k = 10, .steps = 6, .seconds = 95}, "it would finish the rest in 95 s against 100 s");
}

BOOST_AUTO_TEST_SUITE_END()
