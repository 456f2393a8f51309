// Trials of a wider backbone (docs/calibration.md, "A wider backbone"). A plan of k flows
// paced at d never shows that its backbone has grown: its steps are bound by the nodes'
// links and run on time whatever the backbone does, so drift cannot see it. Now and then,
// after steps on the model, the driver re-plans the rest on a backbone widen_factor times
// as wide and judges the trial by its first step: on time, the backbone carries it and the
// plan stays; slow, the backbone is as wide as the trial's steps show (its aggregate rate)
// or, when they show no more than before, as it was, and the rest is re-planned on that.
// A failed trial often costs little (its steps move their bytes through the full backbone),
// but steps of twice the flows the backbone carries can lose a retransmission timeout:
// each failure's cost is measured, and a job stops trying once they exceed its budget.
#pragma once

#include "coordinator/calibration/drift.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace baton::calibration {

// When to try: after `widen_after` steps in a row on the model since the plan last changed.
// A trial that failed (or promised too little to be worth running), or drift that found
// the backbone narrower, doubles the wait, up to four times; a trial kept brings it back.
class WideningSchedule {
 public:
  explicit WideningSchedule(const DriftOptions& options = {})
      : after_(options.widen_after), wait_(options.widen_after) {}
  // The next finished step, on the model or not; true when a trial is due now.
  bool due(bool on_model);
  void plan_changed() { steps_ = 0; }
  void trial_failed();
  void trial_kept();
  void stop() { after_ = 0; }  // no trial is due again
  int wait() const { return wait_; }

 private:
  int after_ = 0;
  int wait_ = 0;
  int steps_ = 0;
};

// The backbone a trial plans on: widen_factor × the model's.
Model widened(const Model& model, const DriftOptions& options);

// Whether a trial's step can judge it: what it planned to move through the backbone,
// bytes / (predicted − β), exceeds the backbone before the trial by more than the
// threshold. A step of the trial's plan that fits the old backbone runs on time either way.
bool tests_backbone(const StepSample& step, const Model& trial, const Model& before, const DriftOptions& options);

// The rest of a job as a plan has it, from the next step on: flows a step, steps left and
// their predicted seconds.
struct RestOfPlan {
  int k = 0;
  std::size_t steps = 0;
  double seconds = 0;
};

enum class TrialAction {
  run,          // re-plan the rest on the wider backbone now
  wait_longer,  // nothing to gain now: the schedule waits as after a failed trial
  stop,         // the job's failed trials spent their budget: no trial again
};

struct TrialDecision {
  TrialAction action = TrialAction::run;
  std::string why;  // when not run: "it would plan no more flows a step (k = 4)"
};

// Whether the job's failed trials cost more than widen_budget × its predicted seconds.
bool trials_spent(double trial_costs, double job_predicted, const DriftOptions& options);

// Whether to run a trial of a wider backbone now that one is due (WideningSchedule::due):
// stop once trials_spent; wait longer when the planner refused the wider plan (`wider`
// empty, `refused` says why), when it plans no more flows a step than `now`, leaves no
// more steps than judging it takes (widen_judge_steps), or finishes the rest no more than
// the drift threshold sooner; run otherwise.
TrialDecision consider_trial(double trial_costs, double job_predicted, const RestOfPlan& now,
                             const std::optional<RestOfPlan>& wider, const std::string& refused,
                             const DriftOptions& options);

struct TrialVerdict {
  bool kept = false;
  double D = 0;      // the backbone from now on: the trial's, what its steps showed, or the one before
  double ratio = 0;  // the trial's steps' median measured / predicted
  double cost = 0;   // s, failed: what its steps took beyond the same flows on `before`'s model
  std::string why;   // "the trial's steps 12-14 ran 1.98x the model's time: ..."
};

// The trial's first widen_judge_steps steps against the trial's model: kept when
// their median time is on the model (as on_model judges a step); otherwise D is the median of their
// aggregate rates, bytes / (time − β), if that beats `before`'s D by more than the
// threshold, and `before`'s D if not.
// A failed trial's cost: each step's time less what its flows take on `before`'s model (the
// longest at d or all of them through D, plus β), never below 0.
TrialVerdict judge_trial(const std::vector<StepSample>& steps, const Model& trial, const Model& before,
                         const DriftOptions& options);

}  // namespace baton::calibration
