#include "coordinator/schedule/reduction/two_class_dp.h"

#include "coordinator/schedule/reduction/binomial_tree.h"
#include "error/error.h"

#include <algorithm>
#include <vector>

namespace baton::schedule::reduction {
namespace {

// Turns the table's splits into transfers (Fig. 11 read forwards).
class TreeBuilder {
 public:
  TreeBuilder(const Problem& problem, const McpTable& table, std::vector<std::size_t> fast,
              std::vector<std::size_t> slow)
      : problem_(problem), table_(table), fast_(std::move(fast)), slow_(std::move(slow)) {}

  // Reduces f fast and s slow unused nodes into `receiver`; returns when it holds them.
  double reduce_into(std::size_t receiver, std::size_t f, std::size_t s) {
    if (f == 0) {
      std::vector<std::size_t> ranks{receiver};
      for (std::size_t k = 0; k < s; ++k) ranks.push_back(slow_[next_slow_++]);
      const Schedule tree = binomial_reduction(problem_.times, ranks);
      schedule_.transfers.insert(schedule_.transfers.end(), tree.transfers.begin(), tree.transfers.end());
      return makespan(tree);
    }
    const Split split = table_.cell(f, s).split;
    const std::size_t sender = fast_[next_fast_++];
    const double sender_ready = reduce_into(sender, split.fast_left, split.slow_left);
    const double receiver_ready = reduce_into(receiver, f - 1 - split.fast_left, s - split.slow_left);
    const double start = std::max(sender_ready, receiver_ready);
    const double end = start + problem_.times[sender];
    schedule_.transfers.push_back({sender, receiver, start, end});
    return end;
  }

  Schedule take() { return std::move(schedule_); }

 private:
  const Problem& problem_;
  const McpTable& table_;
  std::vector<std::size_t> fast_;
  std::vector<std::size_t> slow_;
  std::size_t next_fast_ = 0;
  std::size_t next_slow_ = 0;
  Schedule schedule_;
};

}  // namespace

DpResult two_class_dp(const Problem& problem, DpVariant variant) {
  check(problem);
  const std::vector<std::size_t> all = senders(problem);
  std::vector<double> speeds;
  for (std::size_t p : all) speeds.push_back(problem.times[p]);
  std::sort(speeds.begin(), speeds.end());
  speeds.erase(std::unique(speeds.begin(), speeds.end()), speeds.end());
  if (speeds.size() > 2) {
    throw error::InvalidInput("dp handles at most 2 distinct sender times (the destination's does not count), found " +
                              std::to_string(speeds.size()));
  }
  // One class is all "slow": the f = 0 row, a binomial tree.
  const double slow_time = speeds.empty() ? 1.0 : speeds.back();
  const double fast_time = speeds.size() == 2 ? speeds.front() : slow_time;
  std::vector<std::size_t> fast;
  std::vector<std::size_t> slow;
  for (std::size_t p : all) {
    (speeds.size() == 2 && problem.times[p] == fast_time ? fast : slow).push_back(p);
  }
  const McpTable table = fill_mcp_table({.max_fast = fast.size(),
                                         .max_slow = slow.size(),
                                         .fast_time = fast_time,
                                         .slow_time = slow_time,
                                         .variant = variant});
  const std::size_t f = fast.size();
  const std::size_t s = slow.size();
  TreeBuilder builder(problem, table, std::move(fast), std::move(slow));
  builder.reduce_into(problem.destination, f, s);
  DpResult result{.schedule = builder.take(), .optimum = table.value(f, s), .lookups = table.total_lookups()};
  sort_by_start(result.schedule);
  return result;
}

}  // namespace baton::schedule::reduction
