#include "coordinator/schedule/reduction/binomial_broadcast.h"

#include <bit>
#include <vector>

namespace baton::schedule::reduction {

Schedule binomial_broadcast(std::span<const double> times, std::span<const std::size_t> ranks, double start) {
  const std::size_t n = ranks.size();
  Schedule schedule;
  schedule.transfers.reserve(n > 0 ? n - 1 : 0);
  std::vector<double> received(n, start);
  // Parents have smaller ranks than their children, so going up they are known first.
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t top = i == 0 ? std::bit_ceil(n) : (i & (~i + 1));
    double ready = received[i];
    for (std::size_t bit = top >> 1; bit > 0; bit >>= 1) {
      const std::size_t child = i + bit;
      if (child >= n) continue;
      const double end = ready + times[ranks[i]];
      schedule.transfers.push_back({ranks[i], ranks[child], ready, end});
      received[child] = end;
      ready = end;
    }
  }
  sort_by_start(schedule);
  return schedule;
}

}  // namespace baton::schedule::reduction
