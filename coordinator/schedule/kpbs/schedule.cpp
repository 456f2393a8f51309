#include "coordinator/schedule/kpbs/schedule.h"

#include <algorithm>

namespace baton::schedule::kpbs {

void set_durations(Schedule& schedule, double rate) {
  for (Step& step : schedule.steps) {
    double longest = 0;
    for (const Transfer& t : step.transfers) longest = std::max(longest, t.amount);
    step.duration = longest / rate;
  }
}

double cost(const Schedule& schedule, double beta) {
  double total = 0;
  for (const Step& step : schedule.steps) total += beta + step.duration;
  return total;
}

}  // namespace baton::schedule::kpbs
