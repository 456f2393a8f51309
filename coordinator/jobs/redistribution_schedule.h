// A redistribution's schedule on its platform, by algorithm: the papers' KPBS algorithms on
// the normalized problem (in bytes after), the fluid plan on each node's rate, or `auto`
// choosing among them by predicted time (docs/redistribution.md, "auto"). Checked by the
// independent validator (kpbs/validator.h) before it is returned. What the plan compiler
// cuts into byte ranges and `batonctl plan redistribution` prints.
#pragma once

#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/platform.h"
#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/schedule.h"

#include <string>
#include <utility>
#include <vector>

namespace baton::jobs {

struct RedistributionSchedule {
  schedule::kpbs::Algorithm algorithm = schedule::kpbs::Algorithm::oggp;  // the one planned (auto: the chosen)
  schedule::kpbs::Problem normalized;  // k, β and the times the papers' algorithms plan on
  schedule::kpbs::NodeRates rates;     // every sender's and receiver's rate
  schedule::kpbs::Schedule schedule;   // in bytes and seconds
  std::vector<double> step_seconds;    // the model's time of each step
  double seconds = 0;                  // Σ of step_seconds
  // `auto`: every algorithm it predicted, fastest first (the first is `algorithm`); empty
  // when an algorithm was named.
  std::vector<std::pair<std::string, double>> candidates;
};

// Throws error::Bug when the schedule fails its validation (a planner's fault, never the
// input's).
RedistributionSchedule schedule_redistribution(const schedule::kpbs::PlatformProblem& problem,
                                               schedule::kpbs::Algorithm algorithm);

}  // namespace baton::jobs
