// How the job driver runs jobs and calibrations (the configuration's [driver] figures and
// their defaults): attempts and timeouts of plans and steps, drift, collectives' models.
#pragma once

#include "coordinator/calibration/drift.h"
#include "error/refusal.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace baton::coordinator {

struct DriverOptions {
  int step_attempts = 3;                           // a failed step runs at most this often
  std::chrono::milliseconds retry_pause{500};      // × the attempts so far, before a retry
  std::chrono::milliseconds plan_timeout{10'000};  // for every agent to accept its plan
  // The step timeout, one rule for both ends: an agent fails a step whose flows have not all
  // ended max(min_step_timeout, step_timeout_factor × expected) after its release (sent in
  // StepRelease); the driver waits report_grace longer, so that the agent's report of the
  // timeout, naming what was missing, arrives before the driver gives up on it. Expected:
  // the model's time and the chunks' own (jobs::StepPlan::expected_seconds).
  std::chrono::milliseconds min_step_timeout{30'000};
  double step_timeout_factor = 4.0;
  std::chrono::milliseconds report_grace{5'000};
  std::chrono::milliseconds agents_timeout{30'000};  // a resumed job waits this long for its agents
  // For every agent to confirm the job's end: staged files of an in-place job are completed
  // (the bytes the job did not write are copied in) and renamed into place.
  std::chrono::milliseconds commit_timeout{120'000};
  // A job that saw a failure report waits this much more for the others, so that its error
  // carries each one's view (the sender's missing source, not only its receiver's flow).
  std::chrono::milliseconds failure_grace{1'000};
  // Drift (docs/calibration.md): when steps leave the model, and whether jobs that do not
  // say ("replan") are re-planned: those on a measured platform are, unless this is false.
  calibration::DriftOptions drift{};
  bool replan_on_drift = true;
  // A lockstep job not followed for drift runs its steps self-paced (docs/runtime.md,
  // "Self-paced steps"): one release for every step left, a barrier among its agents between
  // two steps. False: each step released and reported one at a time, as dataflow steps are.
  // The daemon takes the configuration's self_paced_steps (true unless set).
  bool self_paced_steps = true;
  // β of the collectives' models, seconds (the configuration's collective_startup).
  double collective_startup = 0.001;
  // How long a submit waits for the nodes' answers about the objects a job reads and writes.
  std::chrono::milliseconds object_query_timeout{5'000};
  // The queues an API client grows: past these, a submit or a calibration is refused (429).
  std::size_t max_queued_jobs = 256;
  // Jobs running at once (on disjoint nodes, docs/runtime.md "Jobs at once"); past it a job
  // whose nodes are free waits in the queue.
  std::size_t max_running_jobs = 64;
  // Jobs that may share one node, each paced at its share of the node's rate (docs/runtime.md,
  // "Jobs that share nodes"); 1: none share.
  std::size_t max_jobs_per_node = 1;
  // The epoch this coordinator leads at (docs/ha.md), shown as baton_leader_epoch; 0 without
  // an election (journal = "sqlite").
  std::uint64_t leader_epoch = 0;
  // Why this coordinator may no longer lead, or none (EtcdElection::lapsed); asked before
  // every release of a step, which is then not sent (docs/ha.md, "Fencing"). Empty without
  // an election.
  std::function<std::optional<error::Refusal>()> lease_lapsed;
  std::size_t max_queued_calibrations = 4;
};

}  // namespace baton::coordinator
