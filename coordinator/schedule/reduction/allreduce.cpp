#include "coordinator/schedule/reduction/allreduce.h"

#include <algorithm>

namespace baton::schedule::reduction {

std::string_view name(Phase phase) { return phase == Phase::reduce ? "reduce" : "broadcast"; }

double makespan(const AllReduceSchedule& schedule) {
  double latest = 0;
  for (const PhasedTransfer& t : schedule.transfers) latest = std::max(latest, t.transfer.end);
  return latest;
}

AllReduceSchedule join_phases(std::size_t root, const Schedule& reduce, const Schedule& broadcast) {
  AllReduceSchedule schedule{.root = root, .transfers = {}};
  schedule.transfers.reserve(reduce.transfers.size() + broadcast.transfers.size());
  for (const Transfer& t : reduce.transfers) schedule.transfers.push_back({t, Phase::reduce});
  for (const Transfer& t : broadcast.transfers) schedule.transfers.push_back({t, Phase::broadcast});
  return schedule;
}

}  // namespace baton::schedule::reduction
