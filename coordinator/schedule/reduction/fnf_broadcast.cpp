#include "coordinator/schedule/reduction/fnf_broadcast.h"

#include <algorithm>
#include <numeric>
#include <queue>
#include <tuple>
#include <vector>

namespace baton::schedule::reduction {

Schedule fnf_broadcast(std::span<const double> times, std::size_t root, double start) {
  std::vector<std::size_t> receivers(times.size());
  std::iota(receivers.begin(), receivers.end(), std::size_t{0});
  receivers.erase(receivers.begin() + static_cast<std::ptrdiff_t>(root));
  std::stable_sort(receivers.begin(), receivers.end(),
                   [&](std::size_t a, std::size_t b) { return times[a] < times[b]; });

  struct Sender {
    double finish;  // when its next transfer would end
    std::size_t node;
    double ready;
  };
  auto later = [](const Sender& a, const Sender& b) { return std::tie(a.finish, a.node) > std::tie(b.finish, b.node); };
  std::priority_queue<Sender, std::vector<Sender>, decltype(later)> senders(later);
  senders.push({start + times[root], root, start});

  Schedule schedule;
  schedule.transfers.reserve(receivers.size());
  for (std::size_t receiver : receivers) {
    const Sender sender = senders.top();
    senders.pop();
    schedule.transfers.push_back({sender.node, receiver, sender.ready, sender.finish});
    senders.push({sender.finish + times[sender.node], sender.node, sender.finish});
    senders.push({sender.finish + times[receiver], receiver, sender.finish});
  }
  sort_by_start(schedule);
  return schedule;
}

}  // namespace baton::schedule::reduction
