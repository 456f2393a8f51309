#include "coordinator/daemon/driver_metrics.h"

namespace baton::coordinator {

DriverMetrics::DriverMetrics() {
  using metrics::Type;
  registry_.declare("baton_agents", Type::gauge, "Agents known to the registry, by liveness (heartbeats).");
  registry_.declare("baton_jobs", Type::gauge, "Jobs waiting or running now, by state.");
  registry_.declare("baton_jobs_finished_total", Type::counter, "Jobs that ended, by final state.");
  registry_.declare("baton_jobs_running_max", Type::gauge,
                    "Jobs that may run at once (max_running_jobs); more wait in the queue.");
  registry_.declare("baton_job_bytes", Type::gauge, "Bytes the running jobs move in all (0 when none runs).");
  registry_.declare("baton_job_bytes_done", Type::gauge,
                    "Bytes of the running jobs done so far: their finished steps and the agents' progress in the "
                    "running ones.");
  registry_.declare("baton_steps_total", Type::counter, "Steps every agent reported done.");
  registry_.declare("baton_step_attempts_failed_total", Type::counter,
                    "Step attempts that failed (each is retried up to the attempt limit).");
  registry_.declare("baton_step_seconds", Type::histogram,
                    "Measured duration of completed steps, release to last report.",
                    {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300});
  registry_.declare("baton_step_predicted_seconds_total", Type::counter,
                    "The model's predicted time of completed steps.");
  registry_.declare("baton_step_measured_seconds_total", Type::counter, "Measured time of completed steps.");
  registry_.declare("baton_leader_epoch", Type::gauge,
                    "The epoch this coordinator leads at (its election key's create revision in etcd); 0 without "
                    "an election.");
  registry_.declare("baton_leader", Type::gauge,
                    "1 while this coordinator leads (always without an election), 0 while it stands by.");
  // A step's record is one write: etcd's is a round trip to a quorum, SQLite's an fsync.
  const std::vector<double> journal_buckets{0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5};
  registry_.declare("baton_journal_write_seconds", Type::histogram,
                    "Time of each journal write (a job, a state, a step's record, a report), by store.",
                    journal_buckets);
  registry_.declare("baton_journal_read_seconds", Type::histogram,
                    "Time of each journal read (at start, and a standby's answers to the API), by store.",
                    journal_buckets);
  registry_.declare("baton_job_node_share", Type::gauge,
                    "A running job's share of a node's rate, in (0, 1]: its weight among the jobs on the node.");
  registry_.declare("baton_exchanges_total", Type::counter,
                    "Exchanges of kept plans (persistent handoffs) the agents told of afterwards, by result (done: "
                    "every node ok; failed).");
  registry_.declare("baton_bytes_moved_total", Type::counter,
                    "Bytes of completed steps (each byte once, sender to receiver).");
}

void DriverMetrics::exchange_ended(bool done) {
  registry_.add("baton_exchanges_total", {{"result", done ? "done" : "failed"}});
}

void DriverMetrics::attempt_failed() { registry_.add("baton_step_attempts_failed_total"); }

void DriverMetrics::step_done(const journal::StepRecord& step) {
  registry_.add("baton_steps_total");
  registry_.observe("baton_step_seconds", {}, step.measured);
  registry_.add("baton_step_predicted_seconds_total", {}, step.predicted);
  registry_.add("baton_step_measured_seconds_total", {}, step.measured);
  registry_.add("baton_bytes_moved_total", {}, static_cast<double>(step.bytes));
}

void DriverMetrics::leader_epoch(std::uint64_t epoch) {
  registry_.set("baton_leader_epoch", {}, static_cast<double>(epoch));
}

void DriverMetrics::leading(bool leads) { registry_.set("baton_leader", {}, leads ? 1 : 0); }

void DriverMetrics::journal_call(std::string_view store, bool write, double seconds) {
  registry_.observe(write ? "baton_journal_write_seconds" : "baton_journal_read_seconds",
                    {{"store", std::string(store)}}, seconds);
}

void DriverMetrics::node_shares(const std::map<std::uint64_t, JobShare>& shares) {
  std::set<std::pair<std::string, std::string>> shown;
  for (const auto& [id, share] : shares) {
    for (const auto& [node, fraction] : share.nodes) {
      registry_.set("baton_job_node_share", {{"job", std::to_string(id)}, {"node", node}}, fraction);
      shown.emplace(std::to_string(id), node);
    }
  }
  for (const auto& [job, node] : shown_shares_) {
    if (!shown.contains({job, node})) registry_.remove("baton_job_node_share", {{"job", job}, {"node", node}});
  }
  shown_shares_ = std::move(shown);
}

void DriverMetrics::job_finished(JobState state) {
  registry_.add("baton_jobs_finished_total", {{"state", std::string(name(state))}});
}

std::string DriverMetrics::render(std::size_t agents_alive, std::size_t agents_dead, std::size_t jobs_queued,
                                  std::size_t jobs_running, std::size_t max_running, std::uint64_t job_bytes,
                                  std::uint64_t job_bytes_done) {
  registry_.set("baton_agents", {{"state", "alive"}}, static_cast<double>(agents_alive));
  registry_.set("baton_agents", {{"state", "dead"}}, static_cast<double>(agents_dead));
  registry_.set("baton_jobs", {{"state", "queued"}}, static_cast<double>(jobs_queued));
  registry_.set("baton_jobs", {{"state", "running"}}, static_cast<double>(jobs_running));
  registry_.set("baton_jobs_running_max", {}, static_cast<double>(max_running));
  registry_.set("baton_job_bytes", {}, static_cast<double>(job_bytes));
  registry_.set("baton_job_bytes_done", {}, static_cast<double>(job_bytes_done));
  return registry_.render();
}

}  // namespace baton::coordinator
