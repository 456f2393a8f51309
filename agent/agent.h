// The agent's control session (docs/runtime.md, "Control sessions"): connects to the
// coordinator, proves it holds the cluster secret and checks that the coordinator does,
// registers, heartbeats, and runs the steps of the jobs whose plans it holds as they are
// released: several jobs at once, each with its own step runner, a step of one job beside
// a step of another (docs/runtime.md, "Several jobs on one agent"). A lost coordinator
// (restart, network) is just a reconnect, with backoff, forever, until stop().
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
#include <map>
#include <memory>
#include <mutex>
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
  // How many jobs' plans the agent holds at once. A new job's plan makes room by dropping
  // the oldest held job that is over (ended or aborted by the coordinator, else done here)
  // and has no step running; when every held job still runs, it is refused, saying so.
  std::size_t max_jobs = 16;
  // A second data plane, for peers on this host, through shared memory, and this host's
  // identity (agent/same_host.h): its address is registered beside the network one and its
  // flows go to the same jobs. Null: peers reach this agent over the network only.
  DataPlane* same_host_data = nullptr;
  std::string host{};
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
  // Stops: no new steps start; every running step finishes and is reported; then the
  // session closes. Completes when that has happened (at once if the agent never started).
  asio::awaitable<void> stop();
  bool stopped() const noexcept { return stopped_; }

  // Registered with a coordinator right now.
  bool registered() const noexcept { return registered_; }
  // How often this agent heartbeats: what the coordinator said last (at registration, then
  // in each heartbeat's echo; docs/runtime.md, "Liveness"); nothing before a registration.
  std::optional<std::chrono::milliseconds> heartbeat_interval() const noexcept { return heartbeat_; }
  // What the agent is doing, for logs and systemd's STATUS: "idle", "job 7 step 3/10",
  // "job 7 step 3/10; job 9 done (2/2 steps)" (every held job, in job order).
  std::string status() const;

  // Where a job whose plan the agent holds stands (protocol JobStatus.State).
  enum class JobState { running, done, aborted };
  static std::string_view name(JobState state);

  // A job whose plan the agent holds: its id, its state, and how many of its steps this
  // agent finished.
  struct JobProgress {
    std::string job;
    JobState state = JobState::running;
    std::uint32_t steps_done = 0;
    std::uint32_t steps = 0;
  };
  // Every held job, in job order.
  std::vector<JobProgress> job_progress() const;

  // Why an exchange of `job`'s kept plan cannot start here now (no such plan held, not a
  // kept one, its first run not ended at the coordinator, a step of it running, the agent
  // stopping, or the plan no longer passing the checks, e.g. a region registered smaller
  // since), or nothing. The plan is checked again only when the storage may have changed
  // since it last was (Storage::version).
  std::optional<error::Refusal> why_no_exchange(const std::string& job);
  // Runs an exchange of `job`'s kept plan (Plan.keep; docs/embedding.md, "Persistent
  // handoffs"), started by this node's application rather than released by the
  // coordinator: every step of the plan, self-paced behind the members' barrier, as range
  // `range` (every member's application gives the same number, below 2^32 and not 0). Each
  // step's timeout is the longest the coordinator gave the job's steps. The coordinator is
  // told afterwards (ExchangeReport). The report is ok when every member's part of every
  // step but the last was right, and this node's part of the last (its chunks received and
  // verified, its sends acknowledged): after the last step there is no barrier, and the
  // applications agree on the whole themselves. Else its error says why (why_no_exchange's
  // reasons among them).
  asio::awaitable<protocol::ExchangeReport> exchange(std::string job, std::uint64_t range);

  // The data address registered for this agent: the network one, with the shared-memory
  // path beside it when there is one (agent/same_host.h).
  std::string data_address() const;

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
  // The coordinator's messages, one after another, until the session breaks (nothing heard
  // for three heartbeat intervals among them); says why it broke and closes the channel.
  asio::awaitable<void> handle_messages(std::shared_ptr<protocol::Channel> channel);
  // One message of the coordinator's; throws when the session must end.
  asio::awaitable<void> handle_message(protocol::Channel& channel, const protocol::Envelope& message);
  // A Heartbeat every heartbeat interval (as it is at each one) until sending one fails.
  asio::awaitable<void> heartbeats(std::shared_ptr<protocol::Channel> channel);
  // A job whose plan the agent holds. Dropped only when it has no step running, so a
  // running step's coroutine may keep a reference to it.
  struct HeldJob {
    // The job's plan. The agent is its one owner; the data plane only looks at it, one
    // incoming flow at a time (DataPlane::route_to).
    std::shared_ptr<StepRunner> runner;
    JobState state = JobState::running;
    bool ended = false;  // the coordinator ended it (JobEnded)
    std::uint32_t steps_done = 0;
    std::optional<std::uint32_t> running_step;
    // The last step of the self-paced range running (StepRelease.last_step), if one is.
    std::optional<std::uint32_t> range_last;
    // The job's plan again, come while its step ran (a restarted coordinator resuming the
    // job): answered once the step ends.
    std::optional<protocol::Plan> resent_plan;
    std::uint64_t accepted = 0;  // when its plan was accepted, in plans accepted by this agent
    // The longest step timeout the coordinator gave the job's releases: an exchange's steps'.
    std::uint32_t longest_timeout_ms = 0;
    // The storage's version when the plan was last checked (Storage::version), if it has one.
    std::optional<std::uint64_t> checked_at;
  };
  asio::awaitable<void> handle_release(const protocol::StepRelease& release);
  // Runs the one step `release` names, then reports it.
  asio::awaitable<void> run_step(std::string job, protocol::StepRelease release);
  // Runs steps release.step .. release.last_step self-paced (docs/runtime.md, "Self-paced
  // steps"): each, then the barrier among the plan's members; the first member tells the
  // coordinator of each step passed (StepPassed). One report at the range's end, or at the
  // step that failed or was stopped.
  asio::awaitable<void> run_range(std::string job, protocol::StepRelease release);
  // Counts and logs a step's report.
  void count_step(const protocol::StepReport& report);
  // After the job's step or range ended on this node: its state, then `report` to the
  // coordinator, and what waited for the end.
  asio::awaitable<void> end_steps(std::string job, protocol::Envelope report);
  // Runs the released step on `runner` into `report`; then sets `over` and signals `ended`.
  asio::awaitable<void> run_to_report(std::shared_ptr<StepRunner> runner, const protocol::StepRelease& release,
                                      protocol::Envelope& report, bool& over, Signal& ended);
  // Sends the coordinator StepProgress about once a second until `over`.
  asio::awaitable<void> report_progress(std::shared_ptr<StepRunner> runner, const bool& over, Signal& ended);
  // Sends on the live session; false when there is none or it broke.
  asio::awaitable<bool> send(protocol::Envelope envelope);
  // A step report must reach the coordinator even when its session broke meanwhile (an
  // agent it declared dead and that came back): kept, and sent after the next register
  // (one per job: the job's newest).
  asio::awaitable<void> send_report(protocol::Envelope report);
  void handle_plan(const protocol::Plan& plan);
  // Room for a new job's plan: drops a held job that is over if the agent holds max_jobs,
  // or one that had the plan's job number; nothing, or why the plan is refused.
  std::optional<error::Refusal> make_room(const protocol::Plan& plan);
  bool any_step_running() const;
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
  protocol::Envelope job_status(const std::string& job, const HeldJob& held) const;
  // Renders the held jobs' metrics anew (metrics() shows them beside the counters).
  void publish_jobs();

  transport::Context& context_;
  DataPlane& data_;
  Storage& storage_;
  AgentOptions options_;
  PlanCheck check_;
  std::shared_ptr<metrics::Registry> metrics_;  // also counted in by the step runners
  // The held jobs' gauges, made anew on every change (a dropped job leaves no series).
  mutable std::mutex job_metrics_mutex_;
  std::shared_ptr<const metrics::Registry> job_metrics_;
  const std::vector<combine::Speed>* combine_speeds_ = nullptr;  // measured once per process, at start()

  std::shared_ptr<protocol::Channel> channel_;  // the live session, if any
  std::map<std::string, HeldJob> jobs_;         // by job id
  std::uint64_t plans_accepted_ = 0;
  std::map<std::string, protocol::Envelope> undelivered_reports_;  // each job's newest, by job
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
  std::optional<std::chrono::milliseconds> heartbeat_;  // the last coordinator's interval, once registered
  // The interval before the last echo changed it: the heartbeat under way may still keep
  // it, and the coordinator's echo of it come that late.
  std::chrono::milliseconds heartbeat_before_{0};
  const std::string& coordinator_address() const;
  Signal changed_;  // stop() was called, a step ended, or the agent stopped
  // Staging commits' thread, made at the first (an embedded agent, which stages nothing,
  // never has one); joined first on destruction.
  std::unique_ptr<asio::thread_pool> file_work_;
};

}  // namespace baton::agent
