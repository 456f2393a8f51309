#include "coordinator/calibration/widening.h"

#include "coordinator/calibration/fit.h"
#include "coordinator/jobs/step_time.h"

#include <algorithm>
#include <sstream>

namespace baton::calibration {

bool WideningSchedule::due(bool on_model) {
  if (after_ <= 0) return false;
  steps_ = on_model ? steps_ + 1 : 0;
  return steps_ >= wait_;
}

void WideningSchedule::trial_failed() {
  wait_ = std::min(wait_ * 2, after_ * 4);
  steps_ = 0;
}

void WideningSchedule::trial_kept() {
  wait_ = after_;
  steps_ = 0;
}

Model widened(const Model& model, const DriftOptions& options) {
  Model out = model;
  out.D = model.D * options.widen_factor;
  return out;
}

bool trials_spent(double trial_costs, double job_predicted, const DriftOptions& options) {
  return trial_costs > options.widen_budget * job_predicted;
}

TrialDecision consider_trial(double trial_costs, double job_predicted, const RestOfPlan& now,
                             const std::optional<RestOfPlan>& wider, const std::string& refused,
                             const DriftOptions& options) {
  std::ostringstream no;
  no.precision(3);
  if (trials_spent(trial_costs, job_predicted, options)) {
    no << "failed trials cost it " << trial_costs << " s, more than their budget of "
       << options.widen_budget * job_predicted << " s (widen_budget " << options.widen_budget
       << " of the job's predicted " << job_predicted << " s); no more trials";
    return {.action = TrialAction::stop, .why = no.str()};
  }
  if (!wider) {
    no << "the planner refused it: " << refused;
  } else if (wider->k <= now.k) {
    no << "it would plan no more flows a step (k = " << wider->k << ")";
  } else if (wider->steps <= static_cast<std::size_t>(options.widen_judge_steps)) {
    no << "too few steps left to judge it";
  } else if (wider->seconds > now.seconds * (1 - options.threshold)) {
    no << "it would finish the rest in " << wider->seconds << " s against " << now.seconds << " s";
  } else {
    return {.action = TrialAction::run, .why = {}};
  }
  return {.action = TrialAction::wait_longer, .why = no.str()};
}

bool tests_backbone(const StepSample& step, const Model& trial, const Model& before, const DriftOptions& options) {
  const double seconds = step.predicted - trial.beta;
  return seconds > 0 && static_cast<double>(step.bytes) / seconds > before.D * (1 + options.threshold);
}

TrialVerdict judge_trial(const std::vector<StepSample>& steps, const Model& trial, const Model& before,
                         const DriftOptions& options) {
  TrialVerdict out;
  std::vector<double> ratios, late, aggregates;
  for (const StepSample& s : steps) {
    ratios.push_back(s.measured / s.predicted);
    late.push_back(s.measured - s.predicted);
    aggregates.push_back(static_cast<double>(s.bytes) / std::max(s.measured - trial.beta, 1e-9));
  }
  out.ratio = median(std::move(ratios));
  std::ostringstream why;
  why.precision(3);
  why << "the trial's " << (steps.size() == 1 ? "step " : "steps ") << steps.front().step;
  if (steps.size() > 1) why << "-" << steps.back().step;
  why << " ran " << out.ratio << "x the model's time";
  const double late_by = median(std::move(late));
  // On the model as drift sees a step (on_model), by the steps' medians.
  if (out.ratio <= 1 + options.threshold || late_by <= options.min_seconds) {
    out.kept = true;
    out.D = trial.D;
    if (out.ratio <= 1 + options.threshold) {
      why << ": the backbone carries " << trial.D / 1e6 << " MB/s";
    } else {
      why << ", late by " << late_by * 1e3 << " ms: too little to tell";
    }
  } else {
    const double seen = median(std::move(aggregates));
    out.D = seen > before.D * (1 + options.threshold) ? seen : before.D;
    why << ": the backbone carries " << seen / 1e6 << " MB/s, not " << trial.D / 1e6 << "; planning on " << out.D / 1e6
        << " MB/s";
    for (const StepSample& s : steps) {
      // The step on the model before: a scheduled step's longest flow is its busiest node's.
      const auto longest = static_cast<double>(s.longest_flow);
      const double modelled =
          jobs::step_seconds(before.beta, before.d, before.D,
                             {.longest_flow = longest, .busiest_node = longest, .bytes = static_cast<double>(s.bytes)});
      out.cost += std::max(0.0, s.measured - modelled);
    }
  }
  out.why = why.str();
  return out;
}

}  // namespace baton::calibration
