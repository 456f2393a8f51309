// The job driver (docs/runtime.md, "Steps"):
// queues submitted jobs, plans each one, sends every agent its plan, releases the steps
// one at a time behind the papers' barrier, retries a failed step, and journals the job
// before it starts and at every step. Jobs run one at a time.
//
// Threading: everything runs on the io_context's thread (the API reaches it by posting),
// except compiling a job's plan, which runs on a planner thread while the job waits.
#pragma once

#include "coordinator/daemon/agent_registry.h"
#include "coordinator/daemon/job_spec.h"
#include "coordinator/jobs/plan_compiler.h"
#include "coordinator/journal/journal.h"
#include "metrics/registry.h"

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <asio/thread_pool.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <string>

namespace baton::coordinator {

struct DriverOptions {
  int step_attempts = 3;                                   // a failed step runs at most this often
  std::chrono::milliseconds retry_pause{500};              // × the attempts so far, before a retry
  std::chrono::milliseconds plan_timeout{10'000};          // for every agent to accept its plan
  // A step's wait: max(this, 4 × predicted + 10 s); longer than an agent's own (30 s, 4 ×
  // predicted), so an agent's timeout report arrives before the driver gives up on it.
  std::chrono::milliseconds min_step_timeout{35'000};
  std::chrono::milliseconds agents_timeout{30'000};        // a resumed job waits this long for its agents
  // For every agent to confirm the job's end: staged files of an in-place job are completed
  // (the bytes the job did not write are copied in) and renamed into place.
  std::chrono::milliseconds commit_timeout{120'000};
};

// Bad requests the API answers with an HTTP status.
class RequestError : public std::runtime_error {
 public:
  RequestError(int status, const std::string& what) : std::runtime_error(what), status_(status) {}
  int status() const noexcept { return status_; }

 private:
  int status_;
};

class Driver {
 public:
  using Json = nlohmann::ordered_json;
  using Log = std::function<void(const std::string& line)>;

  Driver(asio::io_context& io, AgentRegistry& agents, Journal& journal, DriverOptions options, Log log);
  ~Driver();

  // Queues the jobs a previous coordinator left unfinished (they resume at their first
  // unfinished step once their agents are back) and starts the run loop.
  void start();

  // Queues a job the caller parsed from `json` (parse_job_spec, off the io thread) and
  // journals `json`; returns its id. RequestError(400) names the nodes that are not
  // registered, or why an in-place job cannot be staged.
  std::uint64_t submit(JobSpec spec, const std::string& json);
  // RequestError(404) for an unknown job, 409 when it already ended.
  Json cancel(std::uint64_t id);
  Json job(std::uint64_t id) const;
  Json jobs() const;
  Json agents() const;

  // A message from an agent (the registry's handler).
  void on_message(const std::string& node, const protocol::Envelope& message);

  // What the driver is doing, for logs and STATUS=: "idle", "job 7 step 3/10".
  std::string status() const;

  // Its metrics in Prometheus' text format (docs/metrics.md), gauges read now.
  std::string metrics();

 private:
  struct Job;
  asio::awaitable<void> run_loop();
  asio::awaitable<void> run(Job& job);
  asio::awaitable<bool> wait_until(std::function<bool()> done, std::chrono::steady_clock::time_point deadline);
  // Sends its plan again to every node of the job that no longer holds it (an agent that
  // restarted) and waits for their answers: "" when each accepted, else who did not and why.
  asio::awaitable<std::string> give_plan_again(Job& job, const std::map<std::string, protocol::Plan>& plans);
  // Ends the job on its agents (JobEnded) and waits for each to answer JobCommitted: "" when
  // every one did without error, else who did not and why.
  asio::awaitable<std::string> end_on_agents(Job& job, const std::map<std::string, protocol::Plan>& plans);
  bool alive(const std::string& node) const;
  // Tells `node` to end its attempt at job.cancelled_step now (StepCancel).
  void send_step_cancel(const Job& job, const std::string& node);
  // Each node's storage id, as its agent registered it.
  std::map<std::string, std::string> storages(const Clusters& clusters) const;
  void finish(Job& job, const std::string& state, const std::string& error);
  void on_job_status(const std::string& node, const protocol::JobStatus& status);
  std::vector<std::string> nodes(const Job& job) const;
  void wake() { wake_.cancel(); }

  asio::io_context& io_;
  AgentRegistry& agents_;
  Journal& journal_;
  DriverOptions options_;
  Log log_;
  std::map<std::uint64_t, std::unique_ptr<Job>> jobs_;
  std::deque<std::uint64_t> queue_;
  Job* current_ = nullptr;
  asio::steady_timer wake_;
  metrics::Registry metrics_;
  asio::thread_pool planner_{1};  // compiles plans off the io thread; joined first on destruction
};

}  // namespace baton::coordinator
