#include "coordinator/daemon/driver.h"

#include "coordinator/daemon/collective_nodes.h"
#include "coordinator/daemon/job_view.h"
#include "coordinator/daemon/step_attempt.h"
#include "coordinator/jobs/collective_compiler.h"
#include "coordinator/jobs/staging.h"
#include "coordinator/json/input.h"

#include <asio/bind_executor.hpp>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/post.hpp>
#include <asio/use_awaitable.hpp>

#include <algorithm>
#include <cmath>

namespace baton::coordinator {
namespace {

using std::chrono::milliseconds;

std::string join(const std::string& list, const std::string& item) { return list.empty() ? item : list + "; " + item; }

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

Driver::Driver(asio::io_context& io, AgentDirectory& agents, journal::Journal& journal, Clock& clock,
               DriverOptions options, log::Sink log)
    : io_(io), agents_(agents), journal_(journal), clock_(clock), options_(options), log_(std::move(log)),
      events_(io.get_executor(), clock), calibrations_(journal) {}

Driver::~Driver() = default;

// ---- Requests (the API, on the io thread) ----

void Driver::start() {
  calibrations_.load();
  for (const journal::JobRecord& record : journal_.jobs()) {
    const std::optional<JobState> state = parse_job_state(record.state);
    if (state && ended(*state)) remember_ended(record, *state);
  }
  for (const std::uint64_t id : journal_.unfinished()) {
    const std::optional<journal::JobRecord> record = journal_.job(id);
    auto job = std::make_unique<TrackedJob>();
    job->id = id;
    job->submitted = record->submitted;
    job->resumed = true;
    try {
      job->spec = parse_job_spec(record->spec);
    } catch (const std::exception& e) {
      finish(*job, JobState::failed, std::string("cannot resume: ") + e.what());
      jobs_[id] = std::move(job);
      continue;
    }
    for (const journal::StepRecord& s : journal_.steps(id)) {
      if (s.finished.empty()) continue;
      job->steps.push_back(s);
      job->resume_from = std::max(job->resume_from, s.step + 1);
    }
    if (log_) log_.info("job " + std::to_string(id) + ": resuming at step " + std::to_string(job->resume_from));
    queue_.push_back(id);
    jobs_[id] = std::move(job);
  }
  asio::co_spawn(io_, run_loop(), asio::detached);
}

void Driver::remember_ended(const journal::JobRecord& record, JobState state) {
  auto job = std::make_unique<TrackedJob>();
  job->id = record.id;
  job->submitted = record.submitted;
  job->state = state;
  job->error = record.error;
  if (!record.report.empty()) {
    try {
      job->journaled_view = report::parse_job_report(json::parse_document(record.report));
    } catch (const json::InputError& e) {
      if (log_) {
        log_.info("job " + std::to_string(record.id) + ": the journal's report does not parse (" + e.what() +
                  "); showing its record");
      }
    }
  }
  if (!job->journaled_view) {  // a journal of schema 1: the record and its steps
    try {
      job->spec = parse_job_spec(record.spec);
      for (const jobs::TransferSpec& t : job->spec->transfers) job->bytes_total += t.length;
    } catch (const std::exception&) {
      // shown without senders, receivers or algorithm
    }
    for (const journal::StepRecord& s : journal_.steps(record.id)) {
      if (s.finished.empty()) continue;
      job->steps.push_back(s);
      job->bytes_done += s.bytes;
    }
  }
  jobs_[record.id] = std::move(job);
}

std::uint64_t Driver::ask_objects(const JobSpec& spec, const std::vector<std::pair<std::string, std::string>>& objects,
                                  ObjectQueries::Done done) {
  if (spec.kind != jobs::JobKind::redistribution) check_collective_nodes(spec);
  return objects_.ask(agents_, objects, std::move(done));
}

void Driver::give_up_objects(std::uint64_t query) { objects_.give_up(query); }

void Driver::check_collective_nodes(const JobSpec& spec) const {
  for (const std::string& problem : {collective_nodes_problem(spec.collective, agents_),
                                     shared_storage_conflict(spec.collective, agents_, spec.identities)}) {
    if (!problem.empty()) throw RequestError(RequestFailure::bad_request, problem);
  }
}

std::uint64_t Driver::submit(JobSpec spec, const std::string& json) {
  if (spec.kind != jobs::JobKind::redistribution) {
    check_collective_nodes(spec);
  } else {
    std::string unknown;
    for (const std::string& node : spec.nodes()) {
      if (!agents_.find(node)) unknown += (unknown.empty() ? "" : ", ") + node;
    }
    if (!unknown.empty())
      throw RequestError(RequestFailure::bad_request, "unknown nodes (no agent ever registered as): " + unknown);
    try {
      // An in-place job must be safe to stage, whatever its files' names.
      jobs::staged_destinations(spec.transfers, jobs::FileIdentities(spec.identities, storages(spec.nodes())));
    } catch (const std::invalid_argument& e) {
      throw RequestError(RequestFailure::bad_request, e.what());
    }
  }
  const std::string journaled = resolve_platform(spec, json);
  const std::uint64_t id = journal_.add_job(journaled);  // journaled before anything runs
  auto job = std::make_unique<TrackedJob>();
  job->id = id;
  job->submitted = journal_.job(id)->submitted;
  job->spec = std::move(spec);
  jobs_[id] = std::move(job);
  queue_.push_back(id);
  if (log_) log_.info("job " + std::to_string(id) + ": submitted");
  events_.notify();
  return id;
}

Driver::Json Driver::cancel(std::uint64_t id) {
  const auto found = jobs_.find(id);
  if (found == jobs_.end()) throw RequestError(RequestFailure::not_found, "no job " + std::to_string(id));
  TrackedJob& job = *found->second;
  if (ended(job.state))
    throw RequestError(RequestFailure::conflict,
                       "job " + std::to_string(id) + " already " + std::string(name(job.state)));
  job.cancel_requested = true;
  if (job.state == JobState::queued) {
    std::erase(queue_, id);
    finish(job, JobState::cancelled, "cancelled before it started");
  }
  events_.notify();
  return Json{{"id", std::to_string(id)}, {"state", name(job.state)}};
}

report::JobReport Driver::job_report(std::uint64_t id) const {
  const auto found = jobs_.find(id);
  if (found == jobs_.end()) throw RequestError(RequestFailure::not_found, "no job " + std::to_string(id));
  return coordinator::job_report(*found->second, clock_.now());
}

Driver::Json Driver::job(std::uint64_t id) const { return report::to_json(job_report(id)); }

Driver::Json Driver::jobs() const {
  Json list = Json::array();
  for (const auto& [id, job] : jobs_) list.push_back(job_summary_json(*job));
  return Json{{"jobs", std::move(list)}};
}

Driver::Json Driver::agents() const {
  return agents_json(agents_.agents(), current_, std::chrono::steady_clock::now());
}

std::string Driver::status() const {
  if (calibrating_) {
    return "calibration " + std::to_string(calibrating_->id) + ": " + calibrating_->phase + ", probe step " +
           std::to_string(calibrating_->steps + 1);
  }
  if (!current_) return "idle, " + std::to_string(queue_.size()) + " job(s) queued";
  const TrackedJob& job = *current_;
  if (job.state != JobState::running || !job.plan)
    return "job " + std::to_string(job.id) + " " + std::string(name(job.state));
  return "job " + std::to_string(job.id) + " step " + std::to_string(job.step + 1) + "/" +
         std::to_string(job.plan->steps.size());
}

std::string Driver::metrics() {
  std::size_t alive = 0, dead = 0;
  for (const AgentInfo& a : agents_.agents()) (a.alive ? alive : dead) += 1;
  return metrics_.render(alive, dead, queue_.size(), current_ != nullptr, current_ ? current_->bytes_total : 0,
                         current_ ? bytes_done_now(*current_) : 0);
}

// ---- Messages from the agents ----

void Driver::on_message(const std::string& node, const protocol::Envelope& message) {
  if (message.body_case() == protocol::Envelope::kJobStatus) {
    on_job_status(node, message.job_status());
    return;
  }
  if (message.body_case() == protocol::Envelope::kObjectAnswer) {
    objects_.on_answer(node, message.object_answer());
    return;
  }
  if (message.body_case() == protocol::Envelope::kRegister) {
    // A new session: the agent may be a new process that lost the plan. One that kept it
    // says so in the JobStatus that follows its registration.
    if (current_) current_->holding.erase(node);
    events_.notify();
    return;
  }
  if (!current_) return;
  TrackedJob& job = *current_;
  const std::string id = std::to_string(job.id);
  switch (message.body_case()) {
    case protocol::Envelope::kPlanAccepted:
      if (message.plan_accepted().job() == id) {
        job.accepted.insert(node);
        job.holding.insert(node);
      }
      break;
    case protocol::Envelope::kStepProgress:
      // Shown by watch, status and the metrics; only the attempt running counts.
      if (message.step_progress().job() == id && message.step_progress().step() == job.step &&
          job.reports.count(node) == 0) {
        NodeProgress& progress = job.progress[node];
        progress.bytes = std::max(progress.bytes, message.step_progress().bytes());
        progress.tasks.assign(message.step_progress().tasks().begin(), message.step_progress().tasks().end());
      }
      return;
    case protocol::Envelope::kPlanRefused:
      if (message.plan_refused().job() == id) job.refused[node] = message.plan_refused().reason();
      break;
    case protocol::Envelope::kJobCommitted:
      if (message.job_committed().job() == id) {
        if (message.job_committed().error().empty()) job.committed.insert(node);
        else job.commit_errors[node] = message.job_committed().error();
      }
      break;
    case protocol::Envelope::kStepReport:
      if (message.step_report().job() == id && message.step_report().step() == job.step) {
        job.reports[node] = message.step_report();
      }
      break;
    default: break;
  }
  events_.notify();
}

void Driver::on_job_status(const std::string& node, const protocol::JobStatus& status) {
  if (status.state() == protocol::JobStatus::STATE_UNSPECIFIED) {
    if (log_) log_.info("job " + status.job() + ": agent " + node + " sent a status without a state; ignored");
    return;
  }
  if (current_ && std::to_string(current_->id) == status.job()) {
    TrackedJob& job = *current_;
    if (status.state() == protocol::JobStatus::ABORTED) job.holding.erase(node);
    else job.holding.insert(node);
    if (job.cancelled_step && !job.reports.contains(node)) send_step_cancel(job, node);
    events_.notify();
    return;  // running here (a probe job of a calibration is in no list)
  }
  if (status.state() != protocol::JobStatus::RUNNING) return;
  // An agent still holding a job this coordinator will not run (it ended while the agent
  // was away, or the journal never had it) would refuse every other plan: release it.
  const auto found =
      std::ranges::find_if(jobs_, [&](const auto& entry) { return std::to_string(entry.first) == status.job(); });
  if (found != jobs_.end() && !ended(found->second->state)) return;
  const std::string why = found == jobs_.end()
                              ? "this coordinator has no job " + status.job()
                              : "job " + status.job() + " already " + std::string(name(found->second->state));
  if (log_) log_.info("job " + status.job() + ": agent " + node + " still holds it running; aborting it there: " + why);
  protocol::Envelope envelope;
  envelope.mutable_abort()->set_job(status.job());
  envelope.mutable_abort()->set_reason(why);
  agents_.send(node, std::move(envelope));
}

// ---- A job's life ----

asio::awaitable<void> Driver::run_loop() {
  for (;;) {
    co_await events_.until([this] { return !queue_.empty() || calibrations_.next_queued(); }, Clock::time_point::max());
    // A calibration first: it takes seconds, and the jobs after it may be planned on it.
    if (TrackedCalibration* calibration = calibrations_.next_queued()) {
      co_await run_calibration(*calibration);
      continue;
    }
    TrackedJob& job = *jobs_.at(queue_.front());
    queue_.pop_front();
    current_ = &job;
    try {
      co_await run(job);
    } catch (const std::exception& e) {
      finish(job, JobState::failed, e.what());
    }
    current_ = nullptr;
  }
}

asio::awaitable<void> Driver::run(TrackedJob& job) {
  // A collective is planned on what its agents registered: they must be back first.
  if (job.spec->kind != jobs::JobKind::redistribution && !co_await await_agents(job)) co_return;
  if (!co_await plan(job)) co_return;
  if (!co_await await_agents(job)) co_return;
  JobPlans plans(job, storages(job.nodes()), addresses(job));
  if (!co_await distribute_plans(job, plans)) co_return;
  for (std::uint32_t s = job.resume_from; s < job.plan->steps.size(); ++s) {
    job.step = s;
    const StepOutcome outcome = co_await run_step(job, plans, s);
    if (job.cancel_requested) {
      abort(job, plans, JobState::cancelled, "cancelled at step " + std::to_string(s), "cancelled by the operator");
      co_return;
    }
    if (!outcome.ok) {
      abort(job, plans, JobState::failed,
            "step " + std::to_string(s) + " failed " + std::to_string(outcome.attempts) + " times: " + outcome.failure,
            "step " + std::to_string(s) + " failed");
      co_return;
    }
    record_step(job, s, outcome);
    co_await follow_drift(job, plans, s);
  }
  job.step = static_cast<std::uint32_t>(job.plan->steps.size());
  const std::string why = co_await end_on_agents(job, plans);
  finish(job, why.empty() ? JobState::done : JobState::failed, why);
}

// Planning a large job takes a while: on a thread of its own, so heartbeats and the API go
// on meanwhile (the security review's 2.7 s stall declared 9 agents dead).
asio::awaitable<bool> Driver::plan(TrackedJob& job) {
  job.state = JobState::planning;
  journal_.set_state(job.id, std::string(name(job.state)));
  const JobSpec& spec = *job.spec;
  const bool collective = spec.kind != jobs::JobKind::redistribution;
  std::string planning_error = collective ? collective_nodes_problem(spec.collective, agents_) : "";
  std::optional<jobs::CollectiveModel> model;  // the agents' registrations, read on the io thread
  if (collective && planning_error.empty()) {
    model = collective_model(spec.collective, agents_, options_.collective_startup);
  }
  co_await asio::post(asio::bind_executor(planner_.get_executor(), asio::use_awaitable));
  std::optional<jobs::CompiledPlan> compiled;  // job.plan is the io thread's: the API reads it
  schedule::kpbs::Platform platform = spec.platform;
  nlohmann::ordered_json replans = nlohmann::ordered_json::array();
  std::optional<schedule::kpbs::Platform> trial_before;  // a resumed job's trial, judged again
  try {
    if (collective) {
      if (model) compiled = jobs::compile_collective(spec.collective, *model);
    } else {
      // A measured backbone is used in full where that lowers the bound (docs/calibration.md).
      if (!spec.calibration.empty()) platform = calibration::fullest_platform(platform, spec.clusters, spec.transfers);
      compiled = jobs::compile_plan(spec.clusters, spec.transfers, platform, spec.algorithm);
      replans = replay_replans(job, *compiled, platform, trial_before);
    }
  } catch (const std::exception& e) {
    compiled.reset();
    planning_error = e.what();
  }
  co_await asio::post(asio::bind_executor(io_.get_executor(), asio::use_awaitable));
  if (!compiled) {
    finish(job, JobState::failed, "planning: " + planning_error);
    co_return false;
  }
  // Collective jobs are planned from the nodes' rates: calibration and drift are a
  // redistribution's.
  job.drift.enabled = !collective && !compiled->shared_links && options_.replan_on_drift &&
                      spec.replan.value_or(!spec.calibration.empty());
  job.drift.platform = platform;
  job.drift.sender_rate = spec.platform.sender_rate;
  job.drift.receiver_rate = spec.platform.receiver_rate;
  job.drift.detector = calibration::DriftDetector(options_.drift);
  job.drift.widening = calibration::WideningSchedule(options_.drift);
  job.drift.replans = std::move(replans);
  if (trial_before) job.drift.trial = JobDrift::Trial{.before = *trial_before, .steps = {}};
  job.plan = std::move(compiled);
  for (const jobs::StepPlan& s : job.plan->steps) job.bytes_total += s.bytes;
  for (const journal::StepRecord& s : job.steps) job.bytes_done += s.bytes;
  co_return true;
}

// Every agent must be alive; a resumed job waits for them to come back.
asio::awaitable<bool> Driver::await_agents(TrackedJob& job) {
  const auto wait = job.resumed ? options_.agents_timeout : milliseconds(0);
  if (co_await events_.until([&] { return all_alive(job) || job.cancel_requested; }, clock_.now() + wait))
    co_return true;
  std::string dead;
  for (const std::string& n : job.nodes()) {
    if (!alive(n)) dead += (dead.empty() ? "" : ", ") + n;
  }
  finish(job, JobState::failed, "agents not alive: " + dead);
  co_return false;
}

asio::awaitable<bool> Driver::distribute_plans(TrackedJob& job, JobPlans& plans) {
  job.state = JobState::running;
  journal_.set_state(job.id, std::string(name(job.state)));
  job.started = clock_.now();
  job.accepted.clear();
  job.refused.clear();
  for (const auto& [node, plan] : plans.by_node()) {
    protocol::Envelope envelope;
    *envelope.mutable_plan() = plan;
    agents_.send(node, std::move(envelope));
  }
  // A resumed job's agents may still be finishing the step the old coordinator released;
  // they answer the plan when it ends (docs/runtime.md, "Coordinator restarts").
  const auto wait =
      options_.plan_timeout + (job.resumed ? options_.min_step_timeout + options_.report_grace : milliseconds(0));
  const bool answered = co_await events_.until(
      [&] { return job.accepted.size() + job.refused.size() == plans.by_node().size() || job.cancel_requested; },
      clock_.now() + wait);
  if (job.refused.empty() && answered && !job.cancel_requested) co_return true;
  std::string why = job.cancel_requested ? "cancelled" : !answered ? "agents did not answer the plan in time" : "";
  for (const auto& [node, reason] : job.refused) why = join(why, "agent " + node + " refused the plan: " + reason);
  abort(job, plans, job.cancel_requested ? JobState::cancelled : JobState::failed, why, why);
  co_return false;
}

asio::awaitable<Driver::StepOutcome> Driver::run_step(TrackedJob& job, JobPlans& plans, std::uint32_t step) {
  StepOutcome outcome;
  while (!outcome.ok && outcome.attempts < options_.step_attempts && !job.cancel_requested) {
    if (outcome.attempts > 0) co_await prepare_retry(job, plans, outcome.attempts);
    const int attempts = outcome.attempts + 1;
    // An agent that restarted (kill -9, a reboot) gets its plan again before the release,
    // and a new data address of one goes into every plan that names it.
    if (plans.follow(addresses(job))) {
      job.holding.clear();
      if (log_)
        log_.info("job " + std::to_string(job.id) + ": an agent's data address changed; sending every plan again");
    }
    if (std::string lost = co_await give_plan_again(job, plans); !lost.empty()) {
      outcome.attempts = attempts;
      outcome.failure = std::move(lost);
    } else {
      outcome = co_await attempt_step(job, plans, step);
      outcome.attempts = attempts;
    }
    if (!outcome.ok && !job.cancel_requested) {
      metrics_.attempt_failed();
      if (log_) {
        log_.info("job " + std::to_string(job.id) + " step " + std::to_string(step) + ": attempt " +
                  std::to_string(attempts) + " failed: " + outcome.failure);
      }
    }
  }
  co_return outcome;
}

asio::awaitable<void> Driver::prepare_retry(TrackedJob& job, JobPlans& plans, int attempts_so_far) {
  // A moment before a retry (a peer restarting, a link coming back), then every agent must
  // be back and done with the failed attempt: one still running it, or reconnecting after
  // it was declared dead, would refuse the release and waste it.
  co_await events_.until([&] { return job.cancel_requested; }, clock_.now() + options_.retry_pause * attempts_so_far);
  co_await events_.until(
      [&] {
        return job.cancel_requested || (all_alive(job) && std::ranges::all_of(plans.by_node(), [&](const auto& p) {
                                          return job.reports.contains(p.first) || !job.holding.contains(p.first);
                                        }));
      },
      clock_.now() + options_.agents_timeout);
}

asio::awaitable<Driver::StepOutcome> Driver::attempt_step(TrackedJob& job, JobPlans& plans, std::uint32_t step) {
  const std::string id = std::to_string(job.id);
  const std::size_t nodes = plans.by_node().size();
  job.reports.clear();
  job.progress.clear();
  job.cancelled_step.reset();
  StepOutcome outcome;
  const milliseconds timeout = step_timeout(job.plan->steps[step]);
  outcome.released = clock_.now();
  job.released = outcome.released;
  for (const auto& [node, plan] : plans.by_node()) {
    protocol::Envelope envelope;
    envelope.mutable_step_release()->set_job(id);
    envelope.mutable_step_release()->set_step(step);
    envelope.mutable_step_release()->set_timeout_ms(static_cast<std::uint32_t>(timeout.count()));
    agents_.send(node, std::move(envelope));
  }
  const Clock::time_point deadline = outcome.released + timeout + options_.report_grace;
  const auto failed_report = [&] {
    return std::ranges::any_of(job.reports, [](const auto& entry) { return !entry.second.ok(); });
  };
  // Every report, or the first sign of failure: a failed report or a dead agent.
  const bool ended_early_or_all = co_await events_.until(
      [&] {
        if (job.cancel_requested || failed_report()) return true;
        for (const auto& [node, plan] : plans.by_node()) {
          if (!alive(node) && !job.reports.contains(node)) return true;
        }
        return job.reports.size() == nodes;
      },
      deadline);
  if (ended_early_or_all && failed_report() && job.reports.size() < nodes) {
    // Nodes that see a failure report it within moments of each other: a little longer,
    // so the error carries each one's view. The others are cancelled below.
    co_await events_.until([&] { return job.cancel_requested || job.reports.size() == nodes; },
                           std::min(deadline, clock_.now() + options_.failure_grace));
  }
  outcome.measured = seconds_between(outcome.released, clock_.now());
  const bool complete = job.reports.size() == nodes;
  const bool cut_short = ended_early_or_all && !complete;
  outcome.failure = judge_attempt(
      plans.nodes(), job.reports, [this](const std::string& n) { return alive(n); }, cut_short);
  // The attempt failed elsewhere or timed out: the nodes still in it stop waiting for
  // chunks that will not come, and report (the retry waits for them).
  if (!complete) {
    job.cancelled_step = step;
    job.cancel_reason = outcome.failure;
    for (const auto& [node, plan] : plans.by_node()) {
      if (!job.reports.contains(node)) send_step_cancel(job, node);
    }
  }
  outcome.ok = complete && outcome.failure.empty() && !job.cancel_requested;
  co_return outcome;
}

void Driver::record_step(TrackedJob& job, std::uint32_t step, const StepOutcome& outcome) {
  const jobs::StepPlan& planned = job.plan->steps[step];
  const journal::StepRecord record{.step = step,
                                   .attempts = static_cast<std::uint32_t>(outcome.attempts),
                                   .predicted = planned.predicted_seconds,
                                   .measured = outcome.measured,
                                   .bytes = planned.bytes,
                                   .finished = journal::utc_now()};
  journal_.record_step(job.id, record);
  job.steps.push_back(record);
  StepTiming& timing = job.timing[step];
  timing.started = seconds_between(job.started, outcome.released);
  for (const jobs::PlannedNode& node : planned.nodes) {
    const protocol::StepReport& report = job.reports.at(node.node);
    timing.nodes[node.node] = NodeTiming{report.seconds(), report.bytes()};
    if (report.tasks_size() > 0) timing.tasks[node.node].assign(report.tasks().begin(), report.tasks().end());
  }
  job.progress.clear();
  job.bytes_done += planned.bytes;
  metrics_.step_done(record);
  if (log_) {
    log_.info("job " + std::to_string(job.id) + " step " + std::to_string(step) + "/" +
              std::to_string(job.plan->steps.size()) + ": done, " + std::to_string(planned.bytes) + " bytes in " +
              std::to_string(outcome.measured) + " s (model " + std::to_string(planned.predicted_seconds) + " s)");
  }
}

asio::awaitable<std::string> Driver::give_plan_again(TrackedJob& job, const JobPlans& plans) {
  std::vector<std::string> missing;
  for (const auto& [node, plan] : plans.by_node()) {
    if (!job.holding.contains(node)) missing.push_back(node);
  }
  if (missing.empty()) co_return "";
  job.accepted.clear();
  job.refused.clear();
  for (const std::string& node : missing) {
    if (log_)
      log_.info("job " + std::to_string(job.id) + ": agent " + node + " registered anew; sending its plan again");
    protocol::Envelope envelope;
    *envelope.mutable_plan() = plans.by_node().at(node);
    agents_.send(node, std::move(envelope));
  }
  co_await events_.until(
      [&] {
        return job.cancel_requested || std::ranges::all_of(missing, [&](const std::string& node) {
                 return job.accepted.contains(node) || job.refused.contains(node);
               });
      },
      clock_.now() + options_.plan_timeout);
  std::string why;
  for (const std::string& node : missing) {
    const auto refused = job.refused.find(node);
    if (refused != job.refused.end()) {
      why = join(why, "agent " + node + " refused the plan again: " + refused->second);
    } else if (!job.accepted.contains(node) && !job.cancel_requested) {
      why = join(why, "agent " + node + " did not answer the plan again in time");
    }
  }
  co_return why;
}

asio::awaitable<std::string> Driver::end_on_agents(TrackedJob& job, const JobPlans& plans) {
  const std::string id = std::to_string(job.id);
  // An agent that restarted since its last step holds no plan, so no staged files to commit.
  co_await events_.until(
      [&] { return std::ranges::all_of(plans.by_node(), [&](const auto& p) { return alive(p.first); }); },
      clock_.now() + options_.agents_timeout);
  if (std::string lost = co_await give_plan_again(job, plans); !lost.empty()) co_return lost;
  job.committed.clear();
  job.commit_errors.clear();
  for (const auto& [node, plan] : plans.by_node()) {  // no flow of this job is accepted from now on
    protocol::Envelope envelope;
    envelope.mutable_job_ended()->set_job(id);
    agents_.send(node, std::move(envelope));
  }
  co_await events_.until(
      [&] {
        return std::ranges::all_of(plans.by_node(), [&](const auto& p) {
          return job.committed.contains(p.first) || job.commit_errors.contains(p.first) || !alive(p.first);
        });
      },
      clock_.now() + options_.commit_timeout);
  std::string why;
  for (const auto& [node, plan] : plans.by_node()) {
    const auto error = job.commit_errors.find(node);
    if (error != job.commit_errors.end()) {
      why = join(why, "agent " + node + " could not put its staged files in place: " + error->second);
    } else if (!job.committed.contains(node)) {
      why = join(why, "agent " + node +
                          (alive(node) ? " did not confirm the end of the job in time"
                                       : " died before it confirmed the end of the job"));
    }
  }
  co_return why;
}

void Driver::abort(TrackedJob& job, const JobPlans& plans, JobState state, const std::string& error,
                   const std::string& reason) {
  tell_abort(job, plans, reason);
  finish(job, state, error);
}

void Driver::tell_abort(const TrackedJob& job, const JobPlans& plans, const std::string& reason) {
  for (const auto& [node, plan] : plans.by_node()) {
    protocol::Envelope envelope;
    envelope.mutable_abort()->set_job(std::to_string(job.id));
    envelope.mutable_abort()->set_reason(reason);
    agents_.send(node, std::move(envelope));
  }
}

void Driver::finish(TrackedJob& job, JobState state, const std::string& error) {
  job.state = state;
  job.error = error;
  if (job.started != Clock::time_point{}) job.measured_seconds = seconds_between(job.started, clock_.now());
  journal_.set_state(job.id, std::string(name(state)), error);
  journal_.set_report(job.id, report::to_json(coordinator::job_report(job, clock_.now())).dump());
  metrics_.job_finished(state);
  if (log_)
    log_.info("job " + std::to_string(job.id) + ": " + std::string(name(state)) + (error.empty() ? "" : ": " + error));
}

// ---- Helpers ----

std::chrono::milliseconds Driver::step_timeout(const jobs::StepPlan& step) const {
  const double proportional = std::ceil(step.expected_seconds() * options_.step_timeout_factor * 1000);
  // A StepRelease carries it in 32 bits of milliseconds: 49 days is past any sane step.
  return std::clamp(milliseconds(static_cast<std::int64_t>(std::min(proportional, 4.0e9))), options_.min_step_timeout,
                    milliseconds(4'000'000'000));
}

void Driver::send_step_cancel(const TrackedJob& job, const std::string& node) {
  protocol::Envelope envelope;
  envelope.mutable_step_cancel()->set_job(std::to_string(job.id));
  envelope.mutable_step_cancel()->set_step(*job.cancelled_step);
  envelope.mutable_step_cancel()->set_reason(job.cancel_reason);
  agents_.send(node, std::move(envelope));
}

bool Driver::alive(const std::string& node) const {
  const auto info = agents_.find(node);
  return info && info->alive;
}

bool Driver::all_alive(const TrackedJob& job) const {
  return std::ranges::all_of(job.nodes(), [&](const std::string& n) { return alive(n); });
}

std::map<std::string, std::string> Driver::storages(const std::vector<std::string>& nodes) const {
  std::map<std::string, std::string> out;
  for (const std::string& node : nodes) {
    if (const auto info = agents_.find(node)) out[node] = info->storage_id;
  }
  return out;
}

std::map<std::string, std::string> Driver::addresses(const TrackedJob& job) const {
  std::map<std::string, std::string> out;
  for (const std::string& n : job.nodes()) {
    if (const auto info = agents_.find(n); info && !info->addresses.empty()) out[n] = info->addresses.front();
  }
  return out;
}

}  // namespace baton::coordinator
