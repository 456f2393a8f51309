// The agent's control session (docs/runtime.md, "Control sessions"): connects to the
// coordinator, proves it holds the cluster secret and checks that the coordinator does,
// registers, heartbeats, and runs the job's steps as they are released. A lost
// coordinator (restart, network) is just a reconnect, with backoff, forever, until stop().
//
// Used by the baton-agent daemon (files under a data root) and embedded in applications
// (memory regions): the storage and the plan check are the caller's.
//
// Threading: everything runs on the transport context's executor.
#pragma once

#include "agent/data_plane.h"
#include "agent/destination_staging.h"
#include "agent/scratch.h"
#include "agent/signal.h"
#include "agent/step_runner.h"
#include "agent/storage.h"
#include "combine/speed.h"
#include "error/refusal.h"
#include "log/log.h"
#include "metrics/registry.h"
#include "protocol/channel.h"

#include <asio/thread_pool.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace baton::agent {

struct AgentOptions {
  std::string node_id;
  std::string coordinator;  // "host:port" of the coordinator's agent listener
  // Standby coordinators' agent listeners (docs/ha.md): when a session cannot be had or
  // ends, the next address is tried, round after round; only the leader listens.
  std::vector<std::string> other_coordinators{};
  std::string secret;  // the cluster's shared secret
  double rate = 0;     // bytes/s this node can send or receive (told to the coordinator)
  std::vector<std::string> transports{"tcp"};
  std::chrono::milliseconds io_timeout{5000};
  std::chrono::milliseconds max_backoff{5000};
  // With standbys listed, the longest wait between rounds: a standby leads within the
  // leader's lease TTL, and agents that waited out a 5 s backoff would add seconds to every
  // fail-over (docs/ha.md, "Timings"). A round costs one refused connection per standby.
  std::chrono::milliseconds max_backoff_with_standbys{500};
  StepOptions steps{};
  // Where this node's objects live (Register.storage_id; agent/file_staging.h).
  std::string storage_id{};
  // Stages an in-place job's destinations (agent/destination_staging.h); null: a plan that stages
  // any is refused (an embedded agent's memory regions).
  Staging* staging = nullptr;
  // Keeps a job's scratch objects (agent/scratch.h); null: a plan that names any is refused.
  ScratchSpace* scratch = nullptr;
  // One line per event (connected, plan accepted, step done, ...) at info; what an
  // operator must fix (the coordinator refused our cluster secret) at warning. Nothing
  // when empty.
  log::Sink log;
};

class Agent {
 public:
  // Nothing when the plan may run here, else the one-line reason (agent/plan_check.h
  // for the daemon; the embedded API checks against its regions).
  using PlanCheck = std::function<std::optional<error::Refusal>(const protocol::Plan&)>;

  // The context, data plane and storage outlive the agent.
  Agent(transport::Context& context, DataPlane& data, Storage& storage, AgentOptions options, PlanCheck check);
  ~Agent();

  // Starts the session loop. The first agent of a process measures its combine speeds
  // first (about 0.25 s; combine/speed.h): Register tells them to the coordinator.
  void start();
  // Stops: no new steps start; a running step finishes and is reported; then the session
  // closes. Completes when that has happened (at once if the agent never started).
  asio::awaitable<void> stop();
  bool stopped() const noexcept { return stopped_; }

  // Registered with a coordinator right now.
  bool registered() const noexcept { return registered_; }
  // What the agent is doing, for logs and systemd's STATUS: "idle", "job 7 step 3/10".
  std::string status() const;

  // Where the job whose plan the agent holds stands (protocol JobStatus.State).
  enum class JobState { running, done, aborted };
  static std::string_view name(JobState state);

  // The job whose plan the agent holds, if any: its id, its state, and how many of its
  // steps this agent finished.
  struct JobProgress {
    std::string job;
    JobState state = JobState::running;
    std::uint32_t steps_done = 0;
    std::uint32_t steps = 0;
  };
  std::optional<JobProgress> job_progress() const;

  // The agent's metrics in Prometheus' text format (docs/metrics.md). Unlike the rest of
  // this class, callable from any thread (the metrics endpoint's).
  std::string metrics() const;

 private:
  asio::awaitable<void> session_loop();
  asio::awaitable<void> session(std::shared_ptr<protocol::Channel> channel);
  // How long a coordinator may take to accept, authenticate and register us. With standbys
  // listed, one heartbeat interval (the last one a coordinator gave): a frozen leader's
  // listener still accepts (the kernel does), and the standby that leads after it must not
  // wait for io_timeout (docs/ha.md, "Agents and operators").
  std::chrono::milliseconds registration_timeout() const;
  // The coordinator's messages, one after another, until the session breaks; says why it
  // broke and closes the channel.
  asio::awaitable<void> handle_messages(std::shared_ptr<protocol::Channel> channel, std::chrono::milliseconds every);
  // One message of the coordinator's; throws when the session must end.
  asio::awaitable<void> handle_message(protocol::Channel& channel, const protocol::Envelope& message);
  // A Heartbeat every `every` until sending one fails.
  asio::awaitable<void> heartbeats(std::shared_ptr<protocol::Channel> channel, std::chrono::milliseconds every);
  asio::awaitable<void> run_step(std::uint32_t step, std::chrono::milliseconds timeout);
  // Runs the step on `runner` into `report`; then sets `over` and signals `ended`.
  asio::awaitable<void> run_to_report(std::shared_ptr<StepRunner> runner, std::uint32_t step,
                                      std::chrono::milliseconds timeout, protocol::Envelope& report, bool& over,
                                      Signal& ended);
  // Sends the coordinator StepProgress about once a second until `over`.
  asio::awaitable<void> report_progress(std::shared_ptr<StepRunner> runner, const bool& over, Signal& ended);
  // Sends on the live session; false when there is none or it broke.
  asio::awaitable<bool> send(protocol::Envelope envelope);
  // A step report must reach the coordinator even when its session broke meanwhile (an
  // agent it declared dead and that came back): kept, and sent after the next register.
  asio::awaitable<void> send_report(protocol::Envelope report);
  void handle_plan(const protocol::Plan& plan);
  // Answers `job`'s plan with PlanRefused{reason}.
  void refuse_plan(const std::string& job, const std::string& reason);
  void handle_abort(const protocol::Abort& abort);
  // Stages the plan's in-place destinations; nothing, or why not (the plan is then refused).
  std::optional<error::Refusal> prepare_staging(const protocol::Plan& plan);
  // The plan's scratch objects (null when it names none) into `scratch`; nothing, or why not.
  std::optional<error::Refusal> open_scratch(const protocol::Plan& plan, std::unique_ptr<Storage>& scratch);
  // The job ended at the coordinator: puts its staged files in place, off the session's
  // thread (the copies may be long), and answers JobCommitted.
  asio::awaitable<void> commit(protocol::Plan plan);
  void say(const std::string& line) const;
  protocol::Envelope job_status() const;

  transport::Context& context_;
  DataPlane& data_;
  Storage& storage_;
  AgentOptions options_;
  PlanCheck check_;
  std::shared_ptr<metrics::Registry> metrics_;                   // also counted in by the step runners
  const std::vector<combine::Speed>* combine_speeds_ = nullptr;  // measured once per process, at start()

  std::shared_ptr<protocol::Channel> channel_;  // the live session, if any
  // The job's plan, while the agent holds one. The agent is its one owner; the data plane
  // only looks at it, one incoming flow at a time (DataPlane::route_to).
  std::shared_ptr<StepRunner> runner_;
  JobState job_state_ = JobState::running;
  std::uint32_t steps_done_ = 0;
  std::optional<std::uint32_t> running_step_;
  // A plan that came while a step ran (the same job's, re-sent by a restarted
  // coordinator; or the next job's, after this one's abort): answered once the step ends.
  std::optional<protocol::Plan> pending_plan_;
  std::optional<protocol::Envelope> undelivered_report_;
  bool started_ = false;
  bool running_ = false;
  bool stopped_ = false;
  bool registered_ = false;
  // Refuses (and ends the session on) a message of a leader epoch lower than the highest
  // seen (docs/ha.md), saying so at warning; else notes its epoch.
  asio::awaitable<void> check_epoch(protocol::Channel& channel, const protocol::Envelope& message,
                                    const std::string& coordinator);
  std::uint64_t leader_epoch_ = 0;
  // Which coordinator is tried now: 0 is options_.coordinator, i the (i-1)th other.
  std::size_t coordinator_index_ = 0;
  std::optional<std::chrono::milliseconds> heartbeat_;  // the last coordinator's, once registered
  const std::string& coordinator_address() const;
  Signal changed_;                  // stop() was called, a step ended, or the agent stopped
  asio::thread_pool file_work_{1};  // staging commits; joined first on destruction
};

}  // namespace baton::agent
