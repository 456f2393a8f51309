#include "coordinator/schedule/reduction/port_conflicts.h"
#include "coordinator/schedule/reduction/validator.h"
#include "coordinator/schedule/reduction/verdict_wording.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace baton::schedule::reduction {

Verdict validate_allreduce(std::span<const double> times, const AllReduceSchedule& schedule) {
  const std::size_t n = times.size();
  if (schedule.root >= n) return broken("root " + std::to_string(schedule.root) + " is not a node");
  Schedule reduce;
  std::vector<std::size_t> broadcast;  // indices into schedule.transfers
  std::vector<Transfer> all;
  for (std::size_t i = 0; i < schedule.transfers.size(); ++i) {
    const PhasedTransfer& t = schedule.transfers[i];
    all.push_back(t.transfer);
    if (t.phase == Phase::reduce) {
      reduce.transfers.push_back(t.transfer);
    } else {
      broadcast.push_back(i);
    }
  }
  const Problem reduction{.times = {times.begin(), times.end()}, .destination = schedule.root};
  const Verdict reduced = validate_reduction(reduction, reduce);
  if (reduced.broken) return broken("reduce phase: " + reduced.broken->reason);
  const double root_holds_result = reduced.makespan;

  const double tolerance = kRelativeTolerance * std::max(1.0, makespan(schedule));
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> receive_of(n, none);
  for (std::size_t i : broadcast) {
    const Transfer& t = schedule.transfers[i].transfer;
    if (t.src >= n || t.dst >= n) return broken(transfer_name(i) + ": node out of range");
    if (t.src == t.dst) return broken(transfer_name(i) + ": node sends to itself");
    if (!std::isfinite(t.start) || !std::isfinite(t.end)) {
      return broken(transfer_name(i) + ": times must be finite");
    }
    if (std::abs(t.end - t.start - times[t.src]) > tolerance) {
      return broken(transfer_name(i) + ": lasts " + std::to_string(t.end - t.start) + ", but times[" +
                    std::to_string(t.src) + "] is " + std::to_string(times[t.src]));
    }
    if (t.dst == schedule.root) return broken(transfer_name(i) + ": the root receives the broadcast");
    if (receive_of[t.dst] != none) {
      return broken(transfer_name(i) + ": node " + std::to_string(t.dst) + " receives twice");
    }
    receive_of[t.dst] = i;
  }
  for (std::size_t p = 0; p < n; ++p) {
    if (p != schedule.root && receive_of[p] == none) {
      return broken("node " + std::to_string(p) + " never receives the broadcast");
    }
  }
  for (std::size_t i : broadcast) {
    const Transfer& t = schedule.transfers[i].transfer;
    if (t.src == schedule.root) {
      if (t.start < root_holds_result - tolerance) {
        return broken(transfer_name(i) + ": the root sends before it holds the result");
      }
    } else if (schedule.transfers[receive_of[t.src]].transfer.end > t.start + tolerance) {
      return broken(transfer_name(i) + ": node " + std::to_string(t.src) + " sends before it has received");
    }
  }
  if (const auto conflict = find_port_conflict(n, all, tolerance)) return broken(conflict->reason);
  return {.broken = std::nullopt, .makespan = makespan(schedule)};
}

}  // namespace baton::schedule::reduction
