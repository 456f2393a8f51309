#include "coordinator/schedule/reduction/schedule.h"

#include <algorithm>
#include <tuple>

namespace baton::schedule::reduction {

double makespan(const Schedule& schedule) {
  double latest = 0;
  for (const Transfer& t : schedule.transfers) latest = std::max(latest, t.end);
  return latest;
}

void sort_by_start(Schedule& schedule) {
  std::sort(schedule.transfers.begin(), schedule.transfers.end(),
            [](const Transfer& a, const Transfer& b) { return std::tie(a.start, a.src) < std::tie(b.start, b.src); });
}

}  // namespace baton::schedule::reduction
