#include "coordinator/schedule/reduction/port_conflicts.h"
#include "coordinator/schedule/reduction/validator.h"
#include "coordinator/schedule/reduction/verdict_wording.h"
#include "error/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace baton::schedule::reduction {

Verdict validate_reduction(const Problem& problem, const Schedule& schedule) {
  try {
    check(problem);
  } catch (const error::InvalidInput& e) {
    return broken(e.what());
  }
  const std::size_t n = problem.times.size();
  const auto& transfers = schedule.transfers;
  double horizon = 1;
  for (const Transfer& t : transfers) horizon = std::max({horizon, std::abs(t.end)});
  const double tolerance = kRelativeTolerance * horizon;

  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> send_of(n, none);
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const Transfer& t = transfers[i];
    if (t.src >= n || t.dst >= n) return broken(transfer_name(i) + ": node out of range");
    if (t.src == t.dst) return broken(transfer_name(i) + ": node sends to itself");
    if (!std::isfinite(t.start) || !std::isfinite(t.end) || t.start < -tolerance) {
      return broken(transfer_name(i) + ": times must be finite and start >= 0");
    }
    if (std::abs(t.end - t.start - problem.times[t.src]) > tolerance) {
      return broken(transfer_name(i) + ": lasts " + std::to_string(t.end - t.start) + ", but times[" +
                    std::to_string(t.src) + "] is " + std::to_string(problem.times[t.src]));
    }
    if (t.src == problem.destination) {
      return broken(transfer_name(i) + ": the destination sends");
    }
    if (send_of[t.src] != none) {
      return broken(transfer_name(i) + ": node " + std::to_string(t.src) + " sends twice");
    }
    send_of[t.src] = i;
  }
  for (std::size_t p = 0; p < n; ++p) {
    if (p != problem.destination && send_of[p] == none) {
      return broken("node " + std::to_string(p) + " never sends");
    }
  }
  // Receives end before the receiver sends; this is also "after sending it takes part in
  // nothing more", since a node's only other transfers are receives.
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const Transfer& t = transfers[i];
    if (t.dst == problem.destination) continue;
    const Transfer& onward = transfers[send_of[t.dst]];
    if (t.end > onward.start + tolerance) {
      return broken(transfer_name(i) + ": node " + std::to_string(t.dst) + " is still receiving when it sends (" +
                    transfer_name(send_of[t.dst]) + ")");
    }
  }
  if (const auto conflict = find_port_conflict(n, transfers, tolerance)) return broken(conflict->reason);
  return {.broken = std::nullopt, .makespan = makespan(schedule)};
}

}  // namespace baton::schedule::reduction
