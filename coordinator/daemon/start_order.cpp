#include "coordinator/daemon/start_order.h"

#include <algorithm>
#include <ranges>

namespace baton::coordinator {

std::vector<std::uint64_t> jobs_to_start(const std::set<std::string>& held, const std::vector<WaitingJob>& waiting,
                                         std::size_t slots, const NodeSharing& sharing) {
  std::vector<const WaitingJob*> order;
  order.reserve(waiting.size());
  for (const WaitingJob& job : waiting) order.push_back(&job);
  std::ranges::stable_sort(order, [](const WaitingJob* a, const WaitingJob* b) {
    if (a->started_before != b->started_before) return a->started_before;
    return a->priority > b->priority;
  });
  // Nodes no job further down the order gets: those of running jobs and of jobs started
  // here that do not share them, and those of jobs that wait.
  std::set<std::string> taken = held;
  std::map<std::string, std::size_t> shared = sharing.jobs;  // and those started here
  std::vector<std::uint64_t> start;
  for (const WaitingJob* job : order) {
    if (start.size() == slots) break;
    const std::set<std::string> nodes(job->nodes.begin(), job->nodes.end());
    const bool fits = std::ranges::all_of(nodes, [&](const std::string& n) {
      if (taken.contains(n)) return false;
      const auto on = shared.find(n);
      const std::size_t running = on == shared.end() ? 0 : on->second;
      return running == 0 || (job->shares && running < sharing.jobs_per_node);
    });
    if (fits) start.push_back(job->id);
    if (fits && job->shares) {
      for (const std::string& n : nodes) ++shared[n];
    } else {
      taken.insert(nodes.begin(), nodes.end());
    }
  }
  return start;
}

}  // namespace baton::coordinator
