// Drift (docs/calibration.md, "Drift"): a job's steps measured against the model that
// planned them. The KPBS paper leaves "adapting to changing bandwidth" as future work;
// here a run of steps off the model by more than a threshold, all in the same direction,
// is drift (a single slow step is not), and the measured steps give the model's new
// figures, from which the driver re-plans what remains (coordinator/jobs/replan.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace baton::calibration {

struct DriftOptions {
  double threshold = 0.15;    // a step is off the model when |measured − predicted| > this × predicted
  int steps = 3;              // … and drift is this many off in a row, all slower or all faster
  double min_seconds = 0.01;  // and by more than this much: jitter on tiny steps is not drift
  // Trials of a wider backbone (widening.h): after this many steps on the model the rest is
  // re-planned on a backbone widen_factor times as wide, and re-planned back when its
  // steps run slow. 0: never.
  int widen_after = 3;
  double widen_factor = 2;
  int widen_judge_steps = 1;  // the trial's steps that judge it
  // Failed trials may cost a job at most this share of its predicted time; past it, no more.
  double widen_budget = 0.05;
};

// What one receiver of a finished step reported: its flow's bytes and its time.
struct FlowSample {
  std::uint64_t bytes = 0;
  double seconds = 0;
};

struct StepSample {
  std::uint32_t step = 0;
  double predicted = 0;  // s, the model's
  double measured = 0;   // s, release to the last report
  std::uint64_t bytes = 0;
  std::uint64_t longest_flow = 0;  // bytes
  std::vector<FlowSample> flows;
};

enum class Direction { slower, faster };

// Whether a step ran as the model said: within the threshold, or within min_seconds.
bool on_model(const StepSample& step, const DriftOptions& options);

struct Drift {
  Direction direction = Direction::slower;
  std::vector<StepSample> steps;   // the run that made it drift
  double ratio = 0;                // their median measured / predicted
  std::vector<StepSample> before;  // up to as many steps right before the run, on the model
};

class DriftDetector {
 public:
  explicit DriftDetector(DriftOptions options = {}) : options_(options) {}
  // Takes the next finished step; returns the drift when it completes a run of
  // options.steps steps off the model in one direction, and starts counting afresh.
  std::optional<Drift> observe(const StepSample& step);
  // Forgets the steps so far (the plan changed under them).
  void reset() {
    run_.clear();
    before_.clear();
  }

 private:
  DriftOptions options_;
  std::vector<StepSample> run_;
  std::vector<StepSample> before_;  // the latest steps on the model (at most options.steps)
  Direction direction_ = Direction::slower;
};

// The model's figures (bytes/s and seconds).
struct Model {
  double d = 0;     // one flow
  double D = 0;     // the backbone
  double beta = 0;  // a step's start-up
};

// What the drift is taken for, and why.
enum class Cause { backbone, nodes, startup };

struct Estimate {
  Model model;  // the new figures
  Cause cause = Cause::backbone;
  Model before;          // the figures it replaced
  double flow_rate = 0;  // the drifted steps' median flow rate, bytes/s
  double flows = 0;      // their median number of flows
};

// New figures from the drifted steps:
// - slower by about as many seconds as the steps before the run, which were bigger and so
//   within the threshold: a cost every step pays that the model left out (on a calibrated
//   platform, the receivers' disk syncs: the probes write no file); β plus that time;
// - slower otherwise, and (nearly) every flow of steps of two or more flows slowed alike:
//   the backbone they share; D = the median of the steps' aggregate rate, bytes / (time − β);
// - slower otherwise: the nodes of the slow flows; d = the median over the steps of
//   their slowest flow's rate;
// - faster: flows paced at d cannot beat it, so the model overstated β; β less the median
//   time the steps saved (at least the platform's minimum).
// Whether the backbone or every node's link slowed alike cannot be told apart from steps
// of one width. The backbone is the likelier; a wrong guess shows as drift again in the
// narrower steps of the plan made on it, whose flows still run at the rate they ran at
// before (`previous`, the estimate that plan was made on): then the nodes, d = that rate,
// and the backbone as it was before that guess.
Estimate estimate(const Model& model, const Drift& drift, const DriftOptions& options,
                  const Estimate* previous = nullptr);

// "steps 7–9 ran 2.04× the model's time (more than 15 % slower, 3 in a row)".
std::string describe(const Drift& drift, const DriftOptions& options);

}  // namespace baton::calibration
