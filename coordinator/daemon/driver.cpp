#include "coordinator/daemon/driver.h"

#include "coordinator/daemon/digest_match.h"

#include "coordinator/batonctl/json_input.h"
#include "coordinator/jobs/agent_plans.h"
#include "coordinator/jobs/staging.h"

#include <asio/bind_executor.hpp>
#include <asio/co_spawn.hpp>
#include <asio/post.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/use_awaitable.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace baton::coordinator {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto use_nothrow = asio::experimental::as_tuple(asio::use_awaitable);

bool ended(const std::string& state) { return state == "done" || state == "failed" || state == "cancelled"; }

// What the model expects of one node in one step: the bytes of its flows, and β + its
// longest flow / d (every flow runs at d, so a step's prediction is its slowest node's).
// An all-at-once step's flows share the node's link instead: β + all its bytes / d, the
// node's part of the fluid prediction (plan_compiler.cpp; the backbone may slow it more).
struct PlannedNode {
  std::uint64_t bytes = 0;
  double seconds = 0;
};

// The nodes with a flow in `step` (as sender or receiver), senders first, in cluster order.
std::vector<std::pair<std::string, PlannedNode>> planned_nodes(const CompiledPlan& plan, const Clusters& clusters,
                                                               const StepPlan& step) {
  std::vector<std::pair<std::string, PlannedNode>> out;
  const bool shared = plan.algorithm == schedule::kpbs::name(schedule::kpbs::Algorithm::all_at_once);
  const auto at_d = [&](std::uint64_t bytes) {
    return plan.step_startup + (plan.flow_rate > 0 ? static_cast<double>(bytes) / plan.flow_rate : 0);
  };
  const auto add = [&](const std::string& node, const Flow& flow) {
    auto it = std::ranges::find_if(out, [&](const auto& entry) { return entry.first == node; });
    if (it == out.end()) it = out.insert(out.end(), {node, PlannedNode{0, plan.step_startup}});
    it->second.bytes += flow.bytes;
    it->second.seconds = shared ? at_d(it->second.bytes) : std::max(it->second.seconds, at_d(flow.bytes));
  };
  for (const Flow& f : step.flows) add(clusters.senders.at(f.sender), f);
  for (const Flow& f : step.flows) add(clusters.receivers.at(f.receiver), f);
  return out;
}

// What one node reported for a finished step (its StepReport).
struct NodeTiming {
  double seconds = 0;
  std::uint64_t bytes = 0;
};

// A finished step as it really ran: its (last) release, seconds after the job started,
// and the report of every node with a flow in it.
struct StepTiming {
  double started = 0;
  std::map<std::string, NodeTiming> nodes;
};

}  // namespace

struct Driver::Job {
  std::uint64_t id = 0;
  std::string submitted;
  JobSpec spec;
  std::string state = "queued";
  std::string error;
  bool cancel_requested = false;
  bool resumed = false;           // left unfinished by a previous coordinator
  std::uint32_t resume_from = 0;  // steps already done (a resumed job)
  std::optional<CompiledPlan> plan;
  std::uint64_t bytes_total = 0;
  std::uint64_t bytes_done = 0;
  std::uint32_t step = 0;  // the step running (or next)
  Clock::time_point started{};
  double measured_seconds = 0;
  std::vector<StepRecord> steps;  // finished ones
  // The nodes known to hold this job's plan: they accepted it, or said so in a JobStatus
  // after registering. A node that registers anew (a restarted agent) holds nothing until
  // it accepts the plan again.
  std::set<std::string> holding;
  // Answers of the current phase, by node.
  std::set<std::string> accepted;
  std::map<std::string, std::string> refused;
  std::map<std::string, protocol::StepReport> reports;
  // The attempt at step `cancelled_step` ended early (StepCancel, with this reason): an
  // agent that comes back without having reported it is told again.
  std::optional<std::uint32_t> cancelled_step;
  std::string cancel_reason;
  // Answers to JobEnded: staged files in place, or why not.
  std::set<std::string> committed;
  std::map<std::string, std::string> commit_errors;
  // Per-node timing of the steps this coordinator ran (in memory only: a resumed job's
  // earlier steps have their journaled totals but no per-node timing).
  std::map<std::uint32_t, StepTiming> timing;
};

Driver::Driver(asio::io_context& io, AgentRegistry& agents, Journal& journal, DriverOptions options, Log log)
    : io_(io), agents_(agents), journal_(journal), options_(options), log_(std::move(log)), wake_(io) {
  using metrics::Type;
  metrics_.declare("baton_agents", Type::gauge, "Agents known to the registry, by liveness (heartbeats).");
  metrics_.declare("baton_jobs", Type::gauge, "Jobs waiting or running now, by state.");
  metrics_.declare("baton_jobs_finished_total", Type::counter, "Jobs that ended, by final state.");
  metrics_.declare("baton_steps_total", Type::counter, "Steps every agent reported done.");
  metrics_.declare("baton_step_attempts_failed_total", Type::counter,
                   "Step attempts that failed (each is retried up to the attempt limit).");
  metrics_.declare("baton_step_seconds", Type::histogram, "Measured duration of completed steps, release to last report.",
                   {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300});
  metrics_.declare("baton_step_predicted_seconds_total", Type::counter, "The model's predicted time of completed steps.");
  metrics_.declare("baton_step_measured_seconds_total", Type::counter, "Measured time of completed steps.");
  metrics_.declare("baton_bytes_moved_total", Type::counter, "Bytes of completed steps (each byte once, sender to receiver).");
}

std::string Driver::metrics() {
  std::size_t alive = 0, dead = 0;
  for (const AgentInfo& a : agents_.agents()) (a.alive ? alive : dead) += 1;
  metrics_.set("baton_agents", {{"state", "alive"}}, static_cast<double>(alive));
  metrics_.set("baton_agents", {{"state", "dead"}}, static_cast<double>(dead));
  metrics_.set("baton_jobs", {{"state", "queued"}}, static_cast<double>(queue_.size()));
  metrics_.set("baton_jobs", {{"state", "running"}}, current_ ? 1 : 0);
  return metrics_.render();
}

Driver::~Driver() = default;

void Driver::start() {
  for (const std::uint64_t id : journal_.unfinished()) {
    const std::optional<JobRecord> record = journal_.job(id);
    auto job = std::make_unique<Job>();
    job->id = id;
    job->submitted = record->submitted;
    job->resumed = true;
    try {
      job->spec = parse_job_spec(record->spec);
    } catch (const std::exception& e) {
      journal_.set_state(id, "failed", std::string("cannot resume: ") + e.what());
      continue;
    }
    for (const StepRecord& s : journal_.steps(id)) {
      if (s.finished.empty()) continue;
      job->steps.push_back(s);
      job->resume_from = std::max(job->resume_from, s.step + 1);
    }
    if (log_) log_("job " + std::to_string(id) + ": resuming at step " + std::to_string(job->resume_from));
    queue_.push_back(id);
    jobs_[id] = std::move(job);
  }
  asio::co_spawn(io_, run_loop(), asio::detached);
}

std::uint64_t Driver::submit(JobSpec spec, const std::string& json) {
  std::vector<std::string> unknown;
  for (const auto* list : {&spec.clusters.senders, &spec.clusters.receivers}) {
    for (const std::string& node : *list) {
      if (!agents_.find(node)) unknown.push_back(node);
    }
  }
  if (!unknown.empty()) {
    std::string names;
    for (const std::string& n : unknown) names += (names.empty() ? "" : ", ") + n;
    throw RequestError(400, "unknown nodes (no agent ever registered as): " + names);
  }
  try {
    staged_destinations(spec.transfers, storages(spec.clusters));  // an in-place job must be safe to stage
  } catch (const std::invalid_argument& e) {
    throw RequestError(400, e.what());
  }
  const std::uint64_t id = journal_.add_job(json);  // journaled before anything runs
  auto job = std::make_unique<Job>();
  job->id = id;
  job->submitted = journal_.job(id)->submitted;
  job->spec = std::move(spec);
  jobs_[id] = std::move(job);
  queue_.push_back(id);
  if (log_) log_("job " + std::to_string(id) + ": submitted");
  wake();
  return id;
}

Driver::Json Driver::cancel(std::uint64_t id) {
  const auto found = jobs_.find(id);
  if (found == jobs_.end()) throw RequestError(404, "no job " + std::to_string(id));
  Job& job = *found->second;
  if (ended(job.state)) throw RequestError(409, "job " + std::to_string(id) + " already " + job.state);
  job.cancel_requested = true;
  if (job.state == "queued") {
    std::erase(queue_, id);
    finish(job, "cancelled", "cancelled before it started");
  }
  wake();
  return Json{{"id", std::to_string(id)}, {"state", job.state == "queued" ? "cancelled" : job.state}};
}

std::string Driver::status() const {
  if (!current_) return "idle, " + std::to_string(queue_.size()) + " job(s) queued";
  const Job& job = *current_;
  if (job.state != "running" || !job.plan) return "job " + std::to_string(job.id) + " " + job.state;
  return "job " + std::to_string(job.id) + " step " + std::to_string(job.step + 1) + "/" +
         std::to_string(job.plan->steps.size());
}

std::map<std::string, std::string> Driver::storages(const Clusters& clusters) const {
  std::map<std::string, std::string> out;
  for (const auto* list : {&clusters.senders, &clusters.receivers}) {
    for (const std::string& node : *list) {
      if (const auto info = agents_.find(node)) out[node] = info->storage_id;
    }
  }
  return out;
}

std::vector<std::string> Driver::nodes(const Job& job) const {
  std::vector<std::string> all = job.spec.clusters.senders;
  all.insert(all.end(), job.spec.clusters.receivers.begin(), job.spec.clusters.receivers.end());
  return all;
}

void Driver::on_job_status(const std::string& node, const protocol::JobStatus& status) {
  if (current_ && std::to_string(current_->id) == status.job()) {
    Job& job = *current_;
    if (status.state() == "aborted") job.holding.erase(node);
    else job.holding.insert(node);
    if (job.cancelled_step && !job.reports.contains(node)) send_step_cancel(job, node);
    wake();
  }
  if (status.state() != "running") return;
  // An agent still holding a job this coordinator will not run (it ended while the agent
  // was away, or the journal never had it) would refuse every other plan: release it.
  const auto found = std::ranges::find_if(jobs_, [&](const auto& entry) { return std::to_string(entry.first) == status.job(); });
  if (found != jobs_.end() && !ended(found->second->state)) return;
  const std::string why = found == jobs_.end() ? "this coordinator has no job " + status.job()
                                               : "job " + status.job() + " already " + found->second->state;
  if (log_) log_("job " + status.job() + ": agent " + node + " still holds it running; aborting it there: " + why);
  protocol::Envelope envelope;
  envelope.mutable_abort()->set_job(status.job());
  envelope.mutable_abort()->set_reason(why);
  agents_.send(node, std::move(envelope));
}

void Driver::on_message(const std::string& node, const protocol::Envelope& message) {
  if (message.body_case() == protocol::Envelope::kJobStatus) {
    on_job_status(node, message.job_status());
    return;
  }
  if (message.body_case() == protocol::Envelope::kRegister) {
    // A new session: the agent may be a new process that lost the plan. One that kept it
    // says so in the JobStatus that follows its registration.
    if (current_) current_->holding.erase(node);
    wake();
    return;
  }
  if (!current_) return;
  Job& job = *current_;
  const std::string id = std::to_string(job.id);
  switch (message.body_case()) {
    case protocol::Envelope::kPlanAccepted:
      if (message.plan_accepted().job() == id) {
        job.accepted.insert(node);
        job.holding.insert(node);
      }
      break;
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
    default:
      break;
  }
  wake();
}

asio::awaitable<bool> Driver::wait_until(std::function<bool()> done, Clock::time_point deadline) {
  while (!done()) {
    if (Clock::now() >= deadline) co_return false;
    wake_.expires_at(std::min(deadline, Clock::now() + std::chrono::milliseconds(200)));
    co_await wake_.async_wait(use_nothrow);
  }
  co_return true;
}

asio::awaitable<std::string> Driver::give_plan_again(Job& job, const std::map<std::string, protocol::Plan>& plans) {
  std::vector<std::string> missing;
  for (const auto& [node, plan] : plans) {
    if (!job.holding.contains(node)) missing.push_back(node);
  }
  if (missing.empty()) co_return "";
  job.accepted.clear();
  job.refused.clear();
  for (const std::string& node : missing) {
    if (log_) log_("job " + std::to_string(job.id) + ": agent " + node + " registered anew; sending its plan again");
    protocol::Envelope envelope;
    *envelope.mutable_plan() = plans.at(node);
    agents_.send(node, std::move(envelope));
  }
  co_await wait_until(
      [&] {
        return job.cancel_requested || std::ranges::all_of(missing, [&](const std::string& node) {
                 return job.accepted.contains(node) || job.refused.contains(node);
               });
      },
      Clock::now() + options_.plan_timeout);
  std::string why;
  for (const std::string& node : missing) {
    const auto refused = job.refused.find(node);
    if (refused != job.refused.end()) {
      why += (why.empty() ? "" : "; ") + ("agent " + node + " refused the plan again: " + refused->second);
    } else if (!job.accepted.contains(node) && !job.cancel_requested) {
      why += (why.empty() ? "" : "; ") + ("agent " + node + " did not answer the plan again in time");
    }
  }
  co_return why;
}

asio::awaitable<void> Driver::run_loop() {
  for (;;) {
    if (queue_.empty()) {
      wake_.expires_after(std::chrono::seconds(1));
      co_await wake_.async_wait(use_nothrow);
      continue;
    }
    Job& job = *jobs_.at(queue_.front());
    queue_.pop_front();
    current_ = &job;
    try {
      co_await run(job);
    } catch (const std::exception& e) {
      finish(job, "failed", e.what());
    }
    current_ = nullptr;
  }
}

void Driver::finish(Job& job, const std::string& state, const std::string& error) {
  job.state = state;
  job.error = error;
  if (job.started != Clock::time_point{}) {
    job.measured_seconds = std::chrono::duration<double>(Clock::now() - job.started).count();
  }
  journal_.set_state(job.id, state, error);
  metrics_.add("baton_jobs_finished_total", {{"state", state}});
  if (log_) log_("job " + std::to_string(job.id) + ": " + state + (error.empty() ? "" : ": " + error));
}

asio::awaitable<void> Driver::run(Job& job) {
  const std::string id = std::to_string(job.id);
  job.state = "planning";
  journal_.set_state(job.id, "planning");
  // Planning a large job takes a while: on a thread of its own, so heartbeats and the
  // API go on meanwhile (the security review's 2.7 s stall declared 9 agents dead).
  co_await asio::post(asio::bind_executor(planner_.get_executor(), asio::use_awaitable));
  std::optional<CompiledPlan> compiled;  // job.plan is the io thread's: the API reads it
  std::string planning_error;
  try {
    compiled = compile_plan(job.spec.clusters, job.spec.transfers, job.spec.platform, job.spec.algorithm);
  } catch (const std::exception& e) {
    planning_error = e.what();
  }
  co_await asio::post(asio::bind_executor(io_.get_executor(), asio::use_awaitable));
  if (!compiled) {
    finish(job, "failed", "planning: " + planning_error);
    co_return;
  }
  job.plan = std::move(compiled);
  for (const TransferSpec& t : job.spec.transfers) job.bytes_total += t.length;
  for (const StepRecord& s : job.steps) job.bytes_done += s.bytes;

  // Every agent must be alive (a resumed job waits for them to come back).
  const auto all_alive = [&] {
    return std::ranges::all_of(nodes(job), [&](const std::string& n) {
      const auto info = agents_.find(n);
      return info && info->alive;
    });
  };
  if (!co_await wait_until([&] { return all_alive() || job.cancel_requested; },
                           Clock::now() + (job.resumed ? options_.agents_timeout : std::chrono::milliseconds(0)))) {
    std::string dead;
    for (const std::string& n : nodes(job)) {
      const auto info = agents_.find(n);
      if (!info || !info->alive) dead += (dead.empty() ? "" : ", ") + n;
    }
    finish(job, "failed", "agents not alive: " + dead);
    co_return;
  }
  // Each node's data address, as the plans name it.
  const auto current_addresses = [&] {
    std::map<std::string, std::string> out;
    for (const std::string& n : nodes(job)) {
      if (const auto info = agents_.find(n)) out[n] = info->addresses.front();
    }
    return out;
  };
  std::map<std::string, std::string> addresses = current_addresses();
  const bool unpaced = job.spec.algorithm == schedule::kpbs::Algorithm::all_at_once;
  // In place: what the job reads is not overwritten before the job ends (staging.h). The
  // tag holds the submission time, so a stale staging file of another life of job `id`
  // (a coordinator whose journal was lost) is never taken for this one's.
  std::string tag = id + "-";
  for (const char c : job.submitted) {
    if (std::isalnum(static_cast<unsigned char>(c))) tag += c;
  }
  const auto make_plans = [&] {
    auto out = build_agent_plans(*job.plan, job.spec.clusters, job.spec.transfers, addresses,
                                 {.id = id, .number = job.id, .unpaced = unpaced});
    stage_plans(out, staged_destinations(job.spec.transfers, storages(job.spec.clusters)), tag);
    return out;
  };
  auto plans = make_plans();
  // A restarted agent listens for data elsewhere: every plan that names it changes, and
  // every agent gets its plan again before the next release.
  const auto follow_moved_agents = [&] {
    std::map<std::string, std::string> now = current_addresses();
    if (now == addresses) return;
    addresses = std::move(now);
    plans = make_plans();
    job.holding.clear();
    if (log_) log_("job " + id + ": an agent's data address changed; sending every plan again");
  };

  job.state = "running";
  journal_.set_state(job.id, "running");
  job.started = Clock::now();
  job.accepted.clear();
  job.refused.clear();
  for (const auto& [node, plan] : plans) {
    protocol::Envelope envelope;
    *envelope.mutable_plan() = plan;
    agents_.send(node, std::move(envelope));
  }
  // A resumed job's agents may still be finishing the step the old coordinator released;
  // they answer the plan when it ends (docs/runtime.md, "Coordinator restarts").
  const auto plan_timeout = options_.plan_timeout + (job.resumed ? options_.min_step_timeout : std::chrono::milliseconds(0));
  const bool answered = co_await wait_until(
      [&] { return job.accepted.size() + job.refused.size() == plans.size() || job.cancel_requested; },
      Clock::now() + plan_timeout);
  const auto abort_all = [&](const std::string& reason) {
    for (const auto& [node, plan] : plans) {
      protocol::Envelope envelope;
      envelope.mutable_abort()->set_job(id);
      envelope.mutable_abort()->set_reason(reason);
      agents_.send(node, std::move(envelope));
    }
  };
  if (!job.refused.empty() || !answered || job.cancel_requested) {
    std::string why = job.cancel_requested ? "cancelled" : !answered ? "agents did not answer the plan in time" : "";
    for (const auto& [node, reason] : job.refused) why += (why.empty() ? "" : "; ") + ("agent " + node + " refused the plan: " + reason);
    abort_all(why);
    finish(job, job.cancel_requested ? "cancelled" : "failed", why);
    co_return;
  }

  for (std::uint32_t s = job.resume_from; s < job.plan->steps.size(); ++s) {
    job.step = s;
    const StepPlan& step = job.plan->steps[s];
    std::uint64_t step_bytes = 0;
    for (const Flow& f : step.flows) step_bytes += f.bytes;
    bool ok = false;
    int attempt = 0;
    double measured = 0;
    std::string failure;
    Clock::time_point released{};
    while (!ok && attempt < options_.step_attempts && !job.cancel_requested) {
      if (attempt > 0) {
        // A moment before a retry (a peer restarting, a link coming back), then every agent
        // must be back and done with the failed attempt: one still running it, or
        // reconnecting after it was declared dead, would refuse the release and waste it.
        co_await wait_until([&] { return job.cancel_requested; }, Clock::now() + options_.retry_pause * attempt);
        co_await wait_until(
            [&] {
              return job.cancel_requested || (all_alive() && std::ranges::all_of(plans, [&](const auto& p) {
                                                return job.reports.contains(p.first) || !job.holding.contains(p.first);
                                              }));
            },
            Clock::now() + options_.agents_timeout);
      }
      ++attempt;
      // An agent that restarted (kill -9, a reboot) gets its plan again before the release.
      follow_moved_agents();
      if (std::string lost = co_await give_plan_again(job, plans); !lost.empty()) {
        failure = std::move(lost);
        metrics_.add("baton_step_attempts_failed_total");
        if (log_) log_("job " + id + " step " + std::to_string(s) + ": attempt " + std::to_string(attempt) + " failed: " + failure);
        continue;
      }
      job.reports.clear();
      job.cancelled_step.reset();
      released = Clock::now();
      for (const auto& [node, plan] : plans) {
        protocol::Envelope envelope;
        envelope.mutable_step_release()->set_job(id);
        envelope.mutable_step_release()->set_step(s);
        agents_.send(node, std::move(envelope));
      }
      const auto timeout = std::max<std::chrono::milliseconds>(
          options_.min_step_timeout, std::chrono::milliseconds(static_cast<std::int64_t>(
                                         std::ceil(step.predicted_seconds * 4000 + 10'000))));
      const auto failed_report = [&] {
        return std::ranges::any_of(job.reports, [](const auto& entry) { return !entry.second.ok(); });
      };
      const bool all = co_await wait_until(
          [&] {
            if (job.cancel_requested || failed_report()) return true;  // a failed node fails the attempt now
            for (const auto& [node, plan] : plans) {
              if (!alive(node) && !job.reports.contains(node)) return true;  // so does a dead agent
            }
            return job.reports.size() == plans.size();
          },
          released + timeout);
      if (all && failed_report() && job.reports.size() < plans.size()) {
        // The nodes that see a failure report within moments of each other: a second more,
        // so the error carries each one's view (the sender's missing source, not only its
        // receiver's broken flow). The others are cancelled below.
        co_await wait_until([&] { return job.cancel_requested || job.reports.size() == plans.size(); },
                            std::min(released + timeout, Clock::now() + std::chrono::seconds(1)));
      }
      measured = std::chrono::duration<double>(Clock::now() - released).count();
      failure.clear();
      const bool complete = job.reports.size() == plans.size();
      const bool cut_short = all && !complete;
      for (const auto& [node, plan] : plans) {
        const auto report = job.reports.find(node);
        const auto info = agents_.find(node);
        if (report == job.reports.end()) {
          if (!info || !info->alive) failure += (failure.empty() ? "" : "; ") + node + " is dead";
          else if (!cut_short) failure += (failure.empty() ? "" : "; ") + node + " did not report";
        } else if (!report->second.ok()) {
          failure += (failure.empty() ? "" : "; ") + node + ": " + report->second.error();
        }
      }
      // The attempt failed elsewhere: the nodes still in it stop waiting for chunks that will
      // not come, and report (the retry waits for them).
      if (cut_short || !all) {
        job.cancelled_step = s;
        job.cancel_reason = failure.empty() ? "the attempt timed out" : failure;
        for (const auto& [node, plan] : plans) {
          if (!job.reports.contains(node)) send_step_cancel(job, node);
        }
      }
      // End to end: what landed is what was sent, chunk by chunk (digest_match.h).
      if (complete && failure.empty()) failure = match_digests(job.reports);
      ok = complete && failure.empty() && !job.cancel_requested;
      if (!ok && !job.cancel_requested) metrics_.add("baton_step_attempts_failed_total");
      if (!ok && !job.cancel_requested && log_) {
        log_("job " + id + " step " + std::to_string(s) + ": attempt " + std::to_string(attempt) + " failed: " + failure);
      }
    }
    if (job.cancel_requested) {
      abort_all("cancelled by the operator");
      finish(job, "cancelled", "cancelled at step " + std::to_string(s));
      co_return;
    }
    if (!ok) {
      abort_all("step " + std::to_string(s) + " failed");
      finish(job, "failed", "step " + std::to_string(s) + " failed " + std::to_string(attempt) + " times: " + failure);
      co_return;
    }
    StepRecord record{.step = s, .attempts = static_cast<std::uint32_t>(attempt), .predicted = step.predicted_seconds,
                      .measured = measured, .bytes = step_bytes, .finished = utc_now()};
    journal_.record_step(job.id, record);
    job.steps.push_back(record);
    StepTiming& timing = job.timing[s];
    timing.started = std::chrono::duration<double>(released - job.started).count();
    for (const auto& [node, planned] : planned_nodes(*job.plan, job.spec.clusters, step)) {
      const protocol::StepReport& report = job.reports.at(node);
      timing.nodes[node] = NodeTiming{report.seconds(), report.bytes()};
    }
    job.bytes_done += step_bytes;
    metrics_.add("baton_steps_total");
    metrics_.observe("baton_step_seconds", {}, measured);
    metrics_.add("baton_step_predicted_seconds_total", {}, step.predicted_seconds);
    metrics_.add("baton_step_measured_seconds_total", {}, measured);
    metrics_.add("baton_bytes_moved_total", {}, static_cast<double>(step_bytes));
    if (log_) {
      log_("job " + id + " step " + std::to_string(s) + "/" + std::to_string(job.plan->steps.size()) + ": done, " +
           std::to_string(step_bytes) + " bytes in " + std::to_string(measured) + " s (model " +
           std::to_string(step.predicted_seconds) + " s)");
    }
  }
  job.step = static_cast<std::uint32_t>(job.plan->steps.size());
  if (const std::string why = co_await end_on_agents(job, plans); !why.empty()) {
    finish(job, "failed", why);
    co_return;
  }
  finish(job, "done", "");
}

asio::awaitable<std::string> Driver::end_on_agents(Job& job, const std::map<std::string, protocol::Plan>& plans) {
  const std::string id = std::to_string(job.id);
  // An agent that restarted since its last step holds no plan, so no staged files to commit.
  co_await wait_until([&] { return std::ranges::all_of(plans, [&](const auto& p) { return alive(p.first); }); },
                      Clock::now() + options_.agents_timeout);
  if (std::string lost = co_await give_plan_again(job, plans); !lost.empty()) co_return lost;
  job.committed.clear();
  job.commit_errors.clear();
  for (const auto& [node, plan] : plans) {  // no flow of this job is accepted from now on
    protocol::Envelope envelope;
    envelope.mutable_job_ended()->set_job(id);
    agents_.send(node, std::move(envelope));
  }
  co_await wait_until(
      [&] {
        return std::ranges::all_of(plans, [&](const auto& p) {
          return job.committed.contains(p.first) || job.commit_errors.contains(p.first) || !alive(p.first);
        });
      },
      Clock::now() + options_.commit_timeout);
  std::string why;
  for (const auto& [node, plan] : plans) {
    const auto error = job.commit_errors.find(node);
    if (error != job.commit_errors.end()) {
      why += (why.empty() ? "" : "; ") + ("agent " + node + " could not put its staged files in place: " + error->second);
    } else if (!job.committed.contains(node)) {
      why += (why.empty() ? "" : "; ") + ("agent " + node + (alive(node) ? " did not confirm the end of the job in time"
                                                                          : " died before it confirmed the end of the job"));
    }
  }
  co_return why;
}

void Driver::send_step_cancel(const Job& job, const std::string& node) {
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

Driver::Json Driver::job(std::uint64_t id) const {
  const auto found = jobs_.find(id);
  if (found == jobs_.end()) throw RequestError(404, "no job " + std::to_string(id));
  const Job& job = *found->second;
  Json out{{"id", std::to_string(id)},
           {"state", job.state},
           {"error", job.error},
           {"submitted", job.submitted},
           {"algorithm", std::string(schedule::kpbs::name(job.spec.algorithm))},
           {"senders", job.spec.clusters.senders},
           {"receivers", job.spec.clusters.receivers},
           {"bytes", job.bytes_total},
           {"bytes_done", job.bytes_done},
           {"step", job.step},
           {"steps", job.plan ? job.plan->steps.size() : 0}};
  const double elapsed = job.started == Clock::time_point{} ? 0
                         : ended(job.state) ? job.measured_seconds
                                            : std::chrono::duration<double>(Clock::now() - job.started).count();
  out["elapsed_seconds"] = elapsed;
  if (job.plan) {
    Json steps = Json::array();
    double planned_start = 0;  // Σ predicted of the steps before
    for (std::size_t s = 0; s < job.plan->steps.size(); ++s) {
      const StepPlan& planned = job.plan->steps[s];
      std::uint64_t bytes = 0;
      for (const Flow& f : planned.flows) bytes += f.bytes;
      Json step{{"index", s}, {"flows", planned.flows.size()}, {"bytes", bytes},
                {"predicted_seconds", planned.predicted_seconds}, {"planned_start_seconds", planned_start}};
      planned_start += planned.predicted_seconds;
      const auto done = std::ranges::find_if(job.steps, [&](const StepRecord& r) { return r.step == s; });
      if (done != job.steps.end()) {
        step["measured_seconds"] = done->measured;
        step["attempts"] = done->attempts;
      }
      const auto timing = job.timing.find(static_cast<std::uint32_t>(s));
      if (timing != job.timing.end()) step["started_seconds"] = timing->second.started;
      Json per_node = Json::object();
      for (const auto& [node, expected] : planned_nodes(*job.plan, job.spec.clusters, planned)) {
        Json entry{{"planned_bytes", expected.bytes}, {"planned_seconds", expected.seconds}};
        if (timing != job.timing.end()) {
          const NodeTiming& real = timing->second.nodes.at(node);
          entry["bytes"] = real.bytes;
          entry["seconds"] = real.seconds;
        }
        per_node[node] = std::move(entry);
      }
      step["nodes"] = std::move(per_node);
      steps.push_back(std::move(step));
    }
    double measured = 0;
    for (const StepRecord& r : job.steps) measured += r.measured;
    out["report"] = Json{{"algorithm", job.plan->algorithm},
                         {"k", job.plan->k},
                         {"flow_rate", job.plan->flow_rate},
                         {"steps", std::move(steps)},
                         {"predicted_seconds", job.plan->predicted_seconds},
                         {"lower_bound_seconds", job.plan->lower_bound_seconds},
                         {"measured_steps_seconds", measured},
                         {"measured_seconds", elapsed}};
  }
  return out;
}

Driver::Json Driver::jobs() const {
  Json list = Json::array();
  for (const auto& [id, job] : jobs_) {
    list.push_back(Json{{"id", std::to_string(id)},
                    {"state", job->state},
                    {"algorithm", std::string(schedule::kpbs::name(job->spec.algorithm))},
                    {"steps", job->plan ? job->plan->steps.size() : 0},
                    {"step", job->step},
                    {"bytes", job->bytes_total},
                    {"bytes_done", job->bytes_done},
                    {"submitted", job->submitted}});
  }
  return Json{{"jobs", std::move(list)}};
}

Driver::Json Driver::agents() const {
  Json list = Json::array();
  const auto now = Clock::now();
  const std::vector<std::string> busy = current_ ? nodes(*current_) : std::vector<std::string>{};
  for (const AgentInfo& a : agents_.agents()) {
    const bool in_job = std::ranges::find(busy, a.node) != busy.end();
    list.push_back(Json{{"node", a.node},
                    {"alive", a.alive},
                    {"addresses", a.addresses},
                    {"transports", a.transports},
                    {"rate", a.rate},
                    {"last_heartbeat_age", std::chrono::duration<double>(now - a.last_heard).count()},
                    {"job", in_job ? std::to_string(current_->id) : ""}});
  }
  return Json{{"agents", std::move(list)}};
}

}  // namespace baton::coordinator
