// The job driver's metrics (docs/metrics.md): what it counts as jobs and steps go by, and
// the gauges it reads at each scrape.
#pragma once

#include "coordinator/daemon/job_state.h"
#include "coordinator/daemon/node_shares.h"
#include "coordinator/journal/journal.h"
#include "metrics/registry.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace baton::coordinator {

class DriverMetrics {
 public:
  DriverMetrics();

  void attempt_failed();
  void step_done(const journal::StepRecord& step);
  void job_finished(JobState state);
  // An exchange of a kept plan every node reported ok (`done`), or one a node reported failed.
  void exchange_ended(bool done);
  void leader_epoch(std::uint64_t epoch);
  // Whether this coordinator leads (a coordinator without an election does).
  void leading(bool leads);
  // One call of the journal's `store` ("sqlite", "etcd"): a write or a read, and how long
  // it took.
  void journal_call(std::string_view store, bool write, double seconds);
  // Each running job's share of each of its nodes (node_shares.h), in place of the last.
  void node_shares(const std::map<std::uint64_t, JobShare>& shares);

  // The exposition, with the gauges set to these numbers (the running jobs' bytes summed:
  // 0, 0 when none runs; `max_running`: the limit on jobs at once).
  std::string render(std::size_t agents_alive, std::size_t agents_dead, std::size_t jobs_queued,
                     std::size_t jobs_running, std::size_t max_running, std::uint64_t job_bytes,
                     std::uint64_t job_bytes_done);

 private:
  metrics::Registry registry_;
  std::set<std::pair<std::string, std::string>> shown_shares_;  // (job, node) of baton_job_node_share
};

}  // namespace baton::coordinator
