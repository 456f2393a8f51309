#include "coordinator/daemon/driver.h"

#include "coordinator/collectives/collective_compiler.h"
#include "coordinator/daemon/collective_nodes.h"
#include "coordinator/daemon/job_view.h"
#include "coordinator/daemon/journaled_job.h"
#include "coordinator/daemon/node_shares.h"
#include "coordinator/daemon/record_id.h"
#include "coordinator/daemon/start_order.h"
#include "coordinator/jobs/in_place_staging.h"
#include "error/error.h"

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>

#include <algorithm>
#include <set>

namespace baton::coordinator {
namespace {

// An agent's report of an exchange of a kept plan (Plan.keep), told afterwards: counted in
// the job's tally (exchange_tally.h), or logged and dropped when the job kept no plan or
// the node is not one of its.
void record_exchange(std::map<std::uint64_t, std::unique_ptr<TrackedJob>>& jobs, const std::string& node,
                     const protocol::ExchangeReport& report, DriverMetrics& metrics, log::Logger& log) {
  const std::optional<std::uint64_t> id = parse_record_id(report.job());
  const auto found = id ? jobs.find(*id) : jobs.end();
  if (found == jobs.end() || !found->second->spec || !found->second->spec->keep_plan) {
    if (log) log.info("agent " + node + " reported an exchange of job " + report.job() + ", which kept no plan here");
    return;
  }
  TrackedJob& job = *found->second;
  const ExchangeTally::Outcome outcome = job.exchanges.record(node, report, [&job] { return job.nodes(); });
  if (outcome == ExchangeTally::Outcome::not_a_member) {
    if (log) log.info("agent " + node + " reported an exchange of job " + report.job() + ", which it is not in");
    return;
  }
  if (outcome != ExchangeTally::Outcome::pending) metrics.exchange_ended(outcome == ExchangeTally::Outcome::done);
  if (log && !report.ok())
    log.info("job " + report.job() + " exchange " + std::to_string(report.range()) + ": node " + node + ": " +
             report.error());
}

}  // namespace

Driver::Driver(asio::io_context& io, AgentDirectory& agents, journal::Store& journal, Clock& clock,
               DriverOptions options, log::Sink log)
    : io_(io), agents_(agents),
      journal_(journal, [this, kind = journal.kind()](bool write,
                                                      double seconds) { metrics_.journal_call(kind, write, seconds); }),
      clock_(clock), options_(options), log_(std::move(log)), events_(io.get_executor(), clock),
      executor_(agents, events_, clock, options_, metrics_, log_),
      calibrator_(agents, journal_, executor_, events_, clock, options_, log_),
      services_{
          .io = io.get_executor(),
          .planner = planner_.get_executor(),
          .agents = agents,
          .journal = journal_,
          .executor = executor_,
          .events = events_,
          .plan_cache = plan_cache_,
          .clock = clock,
          .options = options_,
          .metrics = metrics_,
          .log = log_,
          .finish = [this](TrackedJob& job, JobState state, const std::string& error) { finish(job, state, error); }} {
  metrics_.leader_epoch(options_.leader_epoch);
  metrics_.leading(true);
}

Driver::~Driver() = default;

// ---- Requests (the API, on the io thread) ----

void Driver::start() {
  calibrator_.load();
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
    const std::optional<JobState> journaled_state = parse_job_state(record->state);
    job->started_before = journaled_state && *journaled_state != JobState::queued;
    try {
      job->spec = parse_job_spec(record->spec);
      // Staged and refused as when it was accepted, whatever its files' names: the plan it
      // resumes must be the one its finished steps ran (docs/journal.md, version 4).
      job->spec->identities = journal_.identities(id);
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
  queue_changed_ = true;
  asio::co_spawn(io_, run_loop(), asio::detached);
}

void Driver::remember_ended(const journal::JobRecord& record, JobState state) {
  jobs_[record.id] = ended_job(journal_, record, state, log_);
}

std::uint64_t Driver::ask_objects(const JobSpec& spec, const std::vector<std::pair<std::string, std::string>>& objects,
                                  ObjectQueries::Done done) {
  if (spec.kind != jobs::JobKind::redistribution) check_collective_nodes(spec);
  return objects_.ask(agents_, objects, std::move(done));
}

void Driver::give_up_objects(std::uint64_t query) { objects_.give_up(query); }

void Driver::check_collective_nodes(const JobSpec& spec) const {
  for (const std::optional<error::Refusal>& problem :
       {collective_nodes_problem(spec.collective, agents_),
        shared_storage_conflict(spec.collective, agents_, spec.identities)}) {
    if (problem) throw RequestError(RequestFailure::bad_request, problem->reason);
  }
}

std::string Driver::admit(JobSpec& spec, const std::string& json) {
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
      jobs::staged_destinations(spec.transfers,
                                jobs::FileIdentities(spec.identities, executor_.storages(spec.nodes())));
    } catch (const error::InvalidInput& e) {
      throw RequestError(RequestFailure::bad_request, e.what());
    }
  }
  if (queue_.size() >= options_.max_queued_jobs) {
    throw RequestError(RequestFailure::too_many, "the job queue is full: " + std::to_string(queue_.size()) +
                                                     " jobs queued, at the cap (max_queued_jobs " +
                                                     std::to_string(options_.max_queued_jobs) + "), behind " +
                                                     std::to_string(running_.size()) + " running (max_running_jobs " +
                                                     std::to_string(options_.max_running_jobs) +
                                                     "); submit again once one has run, or cancel one");
  }
  return calibrator_.resolve_platform(spec, json);
}

journal::JobRecord Driver::journal_job(const std::string& journaled, const jobs::LearntIdentities& identities) {
  const std::uint64_t id = journal_.add_job(journaled, identities);  // journaled before anything runs
  std::optional<journal::JobRecord> record = journal_.job(id);
  if (!record) throw error::SystemError("the journal lost job " + std::to_string(id) + " as it was written");
  return *std::move(record);
}

std::uint64_t Driver::submit(JobSpec spec, const std::string& json) {
  const std::string journaled = admit(spec, json);
  return enqueue(journal_job(journaled, spec.identities), std::move(spec));
}

std::uint64_t Driver::enqueue(const journal::JobRecord& record, JobSpec spec) {
  const std::uint64_t id = record.id;
  auto job = std::make_unique<TrackedJob>();
  job->id = id;
  job->submitted = record.submitted;
  job->spec = std::move(spec);
  jobs_[id] = std::move(job);
  queue_.push_back(id);
  queue_changed_ = true;
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
  job.exchange.cancel_requested = true;
  if (job.state == JobState::queued) {
    std::erase(queue_, id);
    queue_changed_ = true;  // a job it held back may start
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

report::JobReport Driver::job_progress(std::uint64_t id) const {
  const auto found = jobs_.find(id);
  if (found == jobs_.end()) throw RequestError(RequestFailure::not_found, "no job " + std::to_string(id));
  return coordinator::job_progress(*found->second, clock_.now());
}

Driver::Json Driver::job(std::uint64_t id) const { return report::to_json(job_report(id)); }

Driver::Json Driver::jobs() const {
  Json list = Json::array();
  for (const auto& [id, job] : jobs_) list.push_back(job_summary_json(*job));
  return Json{{"jobs", std::move(list)}};
}

Driver::Json Driver::agents() const {
  // Each running job's shares, by the id its runs are attached under (a calibration's
  // probe step has none).
  std::map<std::string, const std::map<std::string, double>*> shares;
  for (const auto& [id, run] : running_) shares[run->job().exchange.job] = &run->job().share.nodes;
  std::map<std::string, std::vector<NodeRun>> runs;
  for (const auto& [node, jobs] : executor_.jobs_by_node()) {
    for (const std::string& job : jobs) {
      std::optional<double> share;
      if (const auto of_job = shares.find(job); of_job != shares.end()) {
        if (const auto it = of_job->second->find(node); it != of_job->second->end()) share = it->second;
      }
      runs[node].push_back({job, share});
    }
  }
  return agents_json(agents_.agents(), runs, std::chrono::steady_clock::now());
}

std::string Driver::status() const {
  if (std::optional<std::string> calibrating = calibrator_.status()) return std::move(*calibrating);
  if (running_.empty()) return "idle, " + std::to_string(queue_.size()) + " job(s) queued";
  std::string out;
  for (const auto& [id, run] : running_) {
    const TrackedJob& job = run->job();
    out += "job " + std::to_string(id) +
           (job.state != JobState::running || !job.plan
                ? " " + std::string(name(job.state))
                : " step " + std::to_string(job.step + 1) + "/" + std::to_string(job.plan->steps.size())) +
           (job.share.pace < 1 ? " at " + report::percent_text(job.share.pace) + " of its nodes" : "") + ", ";
  }
  return out + std::to_string(queue_.size()) + " queued";
}

std::string Driver::metrics() {
  std::size_t alive = 0, dead = 0;
  for (const AgentInfo& a : agents_.agents()) (a.alive ? alive : dead) += 1;
  std::uint64_t bytes = 0, bytes_done = 0;
  for (const auto& [id, run] : running_) {
    bytes += run->job().bytes_total;
    bytes_done += bytes_done_now(run->job());
  }
  return metrics_.render(alive, dead, queue_.size(), running_.size(), options_.max_running_jobs, bytes, bytes_done);
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
  if (message.body_case() == protocol::Envelope::kExchangeReport) {
    record_exchange(jobs_, node, message.exchange_report(), metrics_, log_);
    return;
  }
  if (message.body_case() == protocol::Envelope::kRegister) executor_.on_register(node);
  else executor_.on_message(node, message);
  // Progress wakes no one: it is shown by watch, status and the metrics.
  if (message.body_case() != protocol::Envelope::kStepProgress) events_.notify();
}

void Driver::on_agent_dead() { events_.notify(); }

void Driver::on_job_status(const std::string& node, const protocol::JobStatus& status) {
  if (status.state() == protocol::JobStatus::STATE_UNSPECIFIED) {
    if (log_) log_.info("job " + status.job() + ": agent " + node + " sent a status without a state; ignored");
    return;
  }
  if (executor_.on_job_status(node, status)) {
    events_.notify();
    return;  // running here (a calibration's probe step is in no list)
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

// ---- The run loop ----

bool Driver::calibration_due() {
  // A calibration before the next job (it takes seconds, and jobs submitted after it may
  // be planned on it), but never two in a row while a job waits: between two jobs runs
  // at most one calibration (docs/calibration.md, "Queues").
  return calibrator_.next_queued() && (queue_.empty() || !calibrated_last_);
}

asio::awaitable<void> Driver::run_loop() {
  for (;;) {
    // A calibration owns the nodes it probes: it waits for every running job to end, and
    // no job starts meanwhile. Otherwise the queue is looked at again when it changed (a
    // submit, a cancel, a job's end).
    co_await events_.until([this] { return calibration_due() ? running_.empty() : queue_changed_; },
                           Clock::time_point::max());
    if (calibration_due()) {
      calibrated_last_ = true;
      co_await calibrator_.run(*calibrator_.next_queued());
      queue_changed_ = true;
      continue;
    }
    queue_changed_ = false;
    std::set<std::string> held;
    NodeSharing sharing{.jobs = {}, .jobs_per_node = options_.max_jobs_per_node};
    for (const auto& [id, run] : running_) {
      const std::vector<std::string> nodes = run->job().nodes();
      if (!run->job().spec->shares_nodes()) held.insert(nodes.begin(), nodes.end());
      else
        for (const std::string& node : std::set<std::string>(nodes.begin(), nodes.end())) ++sharing.jobs[node];
    }
    std::vector<WaitingJob> waiting;
    waiting.reserve(queue_.size());
    for (const std::uint64_t id : queue_) {
      const TrackedJob& job = *jobs_.at(id);
      waiting.push_back(WaitingJob{.id = id,
                                   .priority = job.spec->priority,
                                   .nodes = job.nodes(),
                                   .started_before = job.started_before,
                                   .shares = job.spec->shares_nodes()});
    }
    const std::size_t slots =
        options_.max_running_jobs > running_.size() ? options_.max_running_jobs - running_.size() : 0;
    for (const std::uint64_t id : jobs_to_start(held, waiting, slots, sharing)) {
      calibrated_last_ = false;
      start_job(id);
    }
    share_nodes();
  }
}

void Driver::share_nodes() {
  std::vector<SharingJob> on;
  on.reserve(running_.size());
  for (const auto& [id, run] : running_)
    on.push_back({.id = id, .weight = run->job().spec->weight, .nodes = run->job().nodes()});
  std::map<std::uint64_t, JobShare> shares = node_shares(on);
  metrics_.node_shares(shares);
  for (auto& [id, share] : shares) jobs_.at(id)->share = std::move(share);
}

void Driver::start_job(std::uint64_t id) {
  TrackedJob& job = *jobs_.at(id);
  std::erase(queue_, id);
  job.exchange.job = std::to_string(job.id);
  job.exchange.nodes = job.nodes();
  executor_.attach(job.exchange);  // the agents' answers about it go to its exchange
  JobRun& run = *(running_[id] = std::make_unique<JobRun>(job, services_));
  asio::co_spawn(io_, run_job(run), asio::detached);
}

asio::awaitable<void> Driver::run_job(JobRun& run) {
  co_await run.run();
  const std::uint64_t id = run.job().id;
  executor_.detach(run.job().exchange);
  running_.erase(id);     // its run has ended: nothing of it is in flight
  share_nodes();          // the jobs beside it get its share at their next step
  queue_changed_ = true;  // jobs waiting for its nodes may start
  events_.notify();
}

void Driver::finish(TrackedJob& job, JobState state, const std::string& error) {
  job.state = state;
  job.error = error;
  if (job.started != Clock::time_point{}) job.measured_seconds = seconds_between(job.started, clock_.now());
  journal_.set_state(job.id, std::string(name(state)), error);
  journal_.set_report(job.id, report::to_json(coordinator::job_report(job, clock_.now())).dump());
  metrics_.job_finished(state);
  if (job_ended_) job_ended_();
  if (log_)
    log_.info("job " + std::to_string(job.id) + ": " + std::string(name(state)) + (error.empty() ? "" : ": " + error));
}

}  // namespace baton::coordinator
