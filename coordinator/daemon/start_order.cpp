#include "coordinator/daemon/start_order.h"

#include <algorithm>
#include <ranges>

namespace baton::coordinator {

std::vector<std::uint64_t> jobs_to_start(const std::set<std::string>& busy, const std::vector<WaitingJob>& waiting,
                                         std::size_t slots) {
  std::vector<const WaitingJob*> order;
  order.reserve(waiting.size());
  for (const WaitingJob& job : waiting) order.push_back(&job);
  std::ranges::stable_sort(order, [](const WaitingJob* a, const WaitingJob* b) {
    if (a->started_before != b->started_before) return a->started_before;
    return a->priority > b->priority;
  });
  // Nodes of running jobs, of jobs started here, and of jobs that wait: none is given to a
  // job further down the order.
  std::set<std::string> taken = busy;
  std::vector<std::uint64_t> start;
  for (const WaitingJob* job : order) {
    if (start.size() == slots) break;
    const bool free = std::ranges::none_of(job->nodes, [&](const std::string& n) { return taken.contains(n); });
    if (free) start.push_back(job->id);
    taken.insert(job->nodes.begin(), job->nodes.end());
  }
  return start;
}

}  // namespace baton::coordinator
