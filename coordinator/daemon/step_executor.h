// The step executor (docs/runtime.md, "Steps"): everything the coordinator says to the
// agents of one run of plans, and waits for, the same for a job and for a calibration's
// probe step: offering the plans (again to an agent that registers anew while they are
// offered, and again after a silent offer, as often as a step is attempted), releasing a
// step behind the papers' barrier and waiting for its reports, cancelling an attempt,
// retrying it, and ending the run on the agents or aborting it. A job's run keeps its life
// cycle around it (job_run.h), a calibration its probes (calibrator.h).
//
// Threading: the io thread's. Several runs are attached at once (every running job's, or a
// calibration's probe step), each by the job id the agents know it by; an agent's message
// fills the StepExchange of the run its job field names, and each wakes the waiting phases
// through the shared EventWait.
#pragma once

#include "coordinator/daemon/agent_directory.h"
#include "coordinator/daemon/clock.h"
#include "coordinator/daemon/driver_metrics.h"
#include "coordinator/daemon/driver_options.h"
#include "coordinator/daemon/event_wait.h"
#include "coordinator/daemon/job_plans.h"
#include "coordinator/daemon/step_exchange.h"
#include "error/refusal.h"
#include "log/log.h"
#include "protocol/baton.pb.h"

#include <asio/awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace baton::coordinator {

// How a step's attempts ended.
struct StepOutcome {
  bool ok = false;
  int attempts = 0;
  double measured = 0;                     // seconds, release to the last report (the last attempt)
  Clock::time_point released{};            // of the last attempt
  std::optional<error::Refusal> failures;  // why the last attempt failed
};

// How a self-paced range ended: ok when every node ended it well; else the first step not
// passed (`next`) failed or was stopped, and why.
struct RangeOutcome {
  bool ok = false;
  std::uint32_t next = 0;                  // the first step no node may count as done
  std::optional<error::Refusal> failures;  // when not ok
};

class StepExecutor {
 public:
  StepExecutor(AgentDirectory& agents, EventWait& events, Clock& clock, const DriverOptions& options,
               DriverMetrics& metrics, log::Logger& log);

  // The agents' answers about run.job go to `run` from now on, until it is detached.
  // REQUIRES: no other run with its job id is attached.
  void attach(StepExchange& run);
  void detach(const StepExchange& run);
  // The jobs each node of an attached run is in, in the order of their ids as text.
  std::map<std::string, std::vector<std::string>> jobs_by_node() const;

  // An agent registered (a new control session): it may be a new process that lost the
  // plan, or its plan may have been lost with the old session.
  void on_register(const std::string& node);
  // True when `status` is of an attached run (then it is taken); else the caller's.
  bool on_job_status(const std::string& node, const protocol::JobStatus& status);
  // Answers to plans, step progress and reports, and commits, of the attached run they name.
  void on_message(const std::string& node, const protocol::Envelope& message);

  // Offers every node its plan and waits for each to answer, plan_timeout (+ `longer`) an
  // offer; a node that registers anew meanwhile is offered it again within the same
  // deadline, and one that stays silent is offered it again, up to `offers` offers (a
  // refusal is final). Ok, or each node that refused or never answered and why.
  asio::awaitable<std::optional<error::Refusal>> offer(StepExchange& run, const JobPlans& plans,
                                                       std::chrono::milliseconds longer, int offers);
  // Runs step `step`, predicted to take `predicted` seconds, attempt after attempt until it
  // is done, cancelled or out of attempts: before each, an agent that no longer holds its
  // plan gets it again (and every plan follows a changed data address).
  // `spent`: attempts already made at the step (a self-paced range's that stopped at it,
  // which failed for `spent_failures`): the first attempt here is then a retry.
  asio::awaitable<StepOutcome> run_step(StepExchange& run, JobPlans& plans, std::uint32_t step, double predicted,
                                        int spent = 0, std::optional<error::Refusal> spent_failures = {});
  // Whether steps of `plans` may run self-paced (docs/runtime.md, "Self-paced steps"):
  // lockstep plans naming their members, the option on, and no node shared between jobs
  // (max_jobs_per_node = 1).
  bool self_paced(const JobPlans& plans) const;
  // Runs steps first .. last self-paced: one release to every node, then each step the
  // plans' first member says every node passed goes to `passed` (when it started there, on
  // this clock, and its seconds), in order, while the range runs. Ends when every node reported the range's end,
  // or at the first failed report, dead node or silence past a step's timeout (the nodes
  // still in the range are then cancelled and waited for, as a failed attempt's).
  // `predicted`: each step's predicted seconds (its timeout).
  using PassedStep =
      std::function<asio::awaitable<void>(std::uint32_t step, Clock::time_point started, double seconds)>;
  asio::awaitable<RangeOutcome> run_range(StepExchange& run, const JobPlans& plans, std::uint32_t first,
                                          std::uint32_t last, const std::function<double(std::uint32_t)>& predicted,
                                          const PassedStep& passed);
  // Ends the run on its agents (JobEnded) and waits for each to confirm it (JobCommitted):
  // ok, or who did not and why.
  asio::awaitable<std::optional<error::Refusal>> end(StepExchange& run, const JobPlans& plans);
  // Tells every agent of `plans` that the run is aborted, for `reason`.
  void abort(const StepExchange& run, const JobPlans& plans, const std::string& reason);

  // The agents' step timeout for a step predicted to take `predicted` seconds
  // (DriverOptions::min_step_timeout).
  std::chrono::milliseconds step_timeout(double predicted) const;
  bool alive(const std::string& node) const;
  bool all_alive(const std::vector<std::string>& nodes) const;
  // Each node's data address, as its agent registered it.
  std::map<std::string, std::string> addresses(const std::vector<std::string>& nodes) const;
  // Each node's storage id, as its agent registered it.
  std::map<std::string, std::string> storages(const std::vector<std::string>& nodes) const;

 private:
  // One offer of their plans to `nodes`, until `deadline`; a node registering anew
  // meanwhile is offered its plan again. Leaves the answers in run.accepted and run.refused.
  asio::awaitable<void> offer_once(StepExchange& run, const JobPlans& plans, const std::vector<std::string>& nodes,
                                   Clock::time_point deadline);
  // Gives its plan again to every node that no longer holds it: ok when each accepted.
  asio::awaitable<std::optional<error::Refusal>> give_plan_again(StepExchange& run, const JobPlans& plans);
  asio::awaitable<StepOutcome> attempt(StepExchange& run, JobPlans& plans, std::uint32_t step, double predicted);
  // Before a retry: a pause, then every agent back and done with the failed attempt.
  asio::awaitable<void> prepare_retry(StepExchange& run, const JobPlans& plans, int attempts_so_far);
  void send_plan(const JobPlans& plans, const std::string& node);
  // Holds back a release for good when this coordinator's lease lapsed (docs/ha.md).
  asio::awaitable<void> hold_if_lease_lapsed(const StepExchange& run, std::uint32_t step);
  // A failure was seen before every node reported: nodes that see it report within
  // moments of each other, so a little longer (failure_grace, up to `deadline`), so that
  // the error carries each one's view.
  asio::awaitable<void> wait_failure_grace(StepExchange& run, std::size_t nodes, Clock::time_point deadline);
  // The attempt at `step` (a range's from `step`) ended early: the nodes still in it stop
  // now and report (StepCancel), and one that comes back without a report is told again.
  void cancel_unreported(StepExchange& run, const JobPlans& plans, std::uint32_t step, const std::string& reason);
  // Tells `node` to end its attempt at run.cancelled_step now (StepCancel).
  void send_step_cancel(const StepExchange& run, const std::string& node);

  AgentDirectory& agents_;
  EventWait& events_;
  Clock& clock_;
  const DriverOptions& options_;
  DriverMetrics& metrics_;
  log::Logger& log_;
  // The attached runs, by job id.
  std::map<std::string, StepExchange*> runs_;
  // A new release number (StepRelease.range), never 0.
  std::uint32_t next_release();
  // The next release's number: from a random start, so that a restarted coordinator's
  // releases differ from its predecessor's.
  std::uint32_t next_range_;
  StepExchange* run_of(const std::string& job) const;
};

}  // namespace baton::coordinator
