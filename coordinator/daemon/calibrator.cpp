// Calibration in the coordinator (calibrator.h): probe steps run as one-step jobs of their
// own between jobs, and jobs without a "platform" planned on what they measured.
#include "coordinator/daemon/calibrator.h"

#include "coordinator/calibration/probe_job.h"
#include "coordinator/daemon/record_id.h"
#include "coordinator/daemon/request_error.h"
#include "coordinator/json/platform.h"
#include "error/error.h"

#include <algorithm>
#include <stdexcept>

namespace baton::coordinator {
namespace {

// Probe jobs are named above any job id the journal will give: the agents tell them apart.
constexpr std::uint64_t kProbeJobBase = 1'000'000'000'000;

using Json = nlohmann::ordered_json;

std::string joined(const std::vector<std::string>& nodes) {
  std::string out;
  for (const std::string& n : nodes) out += (out.empty() ? "" : ",") + n;
  return out;
}

std::string describe(const calibration::ProbeStep& step, const std::vector<std::string>& senders,
                     const std::vector<std::string>& receivers) {
  std::string flows;
  for (const calibration::ProbeFlow& f : step.flows) {
    flows += (flows.empty() ? "" : ", ") + senders.at(f.sender) + " -> " + receivers.at(f.receiver);
  }
  return step.phase + " step (" + flows + ")";
}

}  // namespace

Calibrator::Calibrator(AgentDirectory& agents, journal::Store& journal, StepExecutor& executor, EventWait& events,
                       Clock& clock, const DriverOptions& options, log::Logger& log)
    : agents_(agents), executor_(executor), events_(events), clock_(clock), options_(options), log_(log),
      calibrations_(journal) {}

void Calibrator::load() { calibrations_.load(); }

std::uint64_t Calibrator::calibrate(CalibrationRequest request, const std::string& json) {
  std::string unknown;
  for (const auto* list : {&request.senders, &request.receivers}) {
    for (const std::string& node : *list) {
      if (!agents_.find(node)) unknown += (unknown.empty() ? "" : ", ") + node;
    }
  }
  if (!unknown.empty())
    throw RequestError(RequestFailure::bad_request, "unknown nodes (no agent ever registered as): " + unknown);
  if (calibrations_.queued() >= options_.max_queued_calibrations) {
    throw RequestError(RequestFailure::too_many,
                       "the calibration queue is full: " + std::to_string(calibrations_.queued()) +
                           " calibrations queued, at the cap (max_queued_calibrations " +
                           std::to_string(options_.max_queued_calibrations) +
                           "); calibrate again once one has run, or cancel one (DELETE /v1/calibrations/ID)");
  }
  const std::uint64_t id = calibrations_.add(std::move(request), json);
  if (log_) log_.info("calibration " + std::to_string(id) + ": requested");
  events_.notify();
  return id;
}

Calibrator::Json Calibrator::cancel(std::uint64_t id) {
  TrackedCalibration* c = calibrations_.find(id);
  if (!c) throw RequestError(RequestFailure::not_found, "no calibration " + std::to_string(id));
  if (ended(c->state)) {
    throw RequestError(RequestFailure::conflict,
                       "calibration " + std::to_string(id) + " already " + std::string(name(c->state)));
  }
  if (log_) log_.info("calibration " + std::to_string(id) + ": cancelled by the operator");
  if (c->state == journal::CalibrationState::queued) {
    calibrations_.cancel_queued(*c);
  } else {
    c->cancel_requested = true;  // its probe step ends now; run finishes it
    if (probe_) probe_->cancel_requested = true;
    events_.notify();
  }
  return Json{{"id", std::to_string(id)}, {"state", name(c->state)}};
}

report::CalibrationReport Calibrator::report(std::uint64_t id) const {
  const TrackedCalibration* c = calibrations_.find(id);
  if (!c) throw RequestError(RequestFailure::not_found, "no calibration " + std::to_string(id));
  return Calibrations::report(*c);
}

Calibrator::Json Calibrator::calibration(std::uint64_t id) const { return report::to_json(report(id)); }

Calibrator::Json Calibrator::calibrations() const { return report::calibration_list_json(calibrations_.lines()); }

std::optional<report::CalibrationReport> Calibrator::latest() const {
  const TrackedCalibration* c = calibrations_.latest_done();
  if (!c) return std::nullopt;
  return Calibrations::report(*c);
}

std::string Calibrator::resolve_platform(JobSpec& spec, const std::string& json) const {
  if (spec.platform_given) return json;
  const TrackedCalibration* found = nullptr;
  if (!spec.calibration.empty()) {
    const std::optional<std::uint64_t> id = parse_record_id(spec.calibration);
    if (!id) throw RequestError(RequestFailure::bad_request, "calibration: no calibration " + spec.calibration);
    found = calibrations_.find(*id);
    if (!found || !found->result)
      throw RequestError(RequestFailure::bad_request, "calibration: calibration " + spec.calibration + " is not done");
    if (!calibration::covers(*found->result, spec.clusters)) {
      throw RequestError(RequestFailure::bad_request, "calibration: calibration " + spec.calibration +
                                                          " did not measure every sender and receiver of the job");
    }
  } else {
    found = calibrations_.latest_covering(spec.clusters);
  }
  if (!found) {
    throw RequestError(
        RequestFailure::bad_request,
        "job: no \"platform\" given and no calibration has measured its nodes; measure them with `batonctl "
        "calibrate --senders " +
            joined(spec.clusters.senders) + " --receivers " + joined(spec.clusters.receivers) +
            "` (POST /v1/calibrations), or give \"platform\"" +
            (calibrations_.any_pending() ? " (a calibration is queued or running: submit again once it is done)" : ""));
  }
  spec.platform = calibration::platform_for(*found->result, spec.clusters);
  spec.calibration = std::to_string(found->id);
  spec.platform_given = true;
  // Journaled with the figures it is planned on: a resumed job gets the same plan whatever
  // was calibrated since.
  Json journaled = Json::parse(json);
  journaled["platform"] = json::platform_json(spec.platform);
  journaled["calibration"] = spec.calibration;
  return journaled.dump();
}

asio::awaitable<void> Calibrator::run(TrackedCalibration& c) {
  calibrations_.start(c);
  calibrating_ = &c;
  const Clock::time_point started = clock_.now();
  if (log_) log_.info("calibration " + std::to_string(c.id) + ": started");
  std::string error;
  std::optional<calibration::Calibration> result;
  try {
    std::string dead;
    for (const auto* list : {&c.request.senders, &c.request.receivers}) {
      for (const std::string& node : *list) {
        if (!executor_.alive(node)) dead += (dead.empty() ? "" : ", ") + node;
      }
    }
    if (!dead.empty()) throw error::Error("agents not alive: " + dead);
    calibration::Prober prober(c.request.senders, c.request.receivers, c.request.probe);
    while (!prober.done()) {
      if (c.cancel_requested) throw error::Error("cancelled by the operator");
      const calibration::ProbeStep step = *prober.next();
      c.phase = step.phase;
      prober.measured(co_await run_probe(c, step));
      ++c.steps;
    }
    result = prober.result();
  } catch (const std::exception& e) {
    error = e.what();
  }
  const double seconds = std::chrono::duration<double>(clock_.now() - started).count();
  calibrations_.finish(c, std::move(result), error, seconds);
  calibrating_ = nullptr;
  if (log_ && c.result) {
    log_.info("calibration " + std::to_string(c.id) + ": done in " + std::to_string(seconds) + " s: d " +
              std::to_string(c.result->d) + " B/s, D " + std::to_string(c.result->D) + " B/s, beta " +
              std::to_string(c.result->beta) + " s, k " + std::to_string(c.result->k));
  } else if (log_) {
    log_.warning("calibration " + std::to_string(c.id) + ": failed: " + error);
  }
}

asio::awaitable<double> Calibrator::run_probe(TrackedCalibration& c, const calibration::ProbeStep& step) {
  const calibration::ProbeJob probe = calibration::probe_job(step, c.request.senders, c.request.receivers);
  JobSpec spec;
  spec.clusters = probe.clusters;
  spec.transfers = probe.transfers;
  const std::uint64_t id = kProbeJobBase + ++probes_;
  StepExchange run;
  run.job = std::to_string(id);
  run.nodes = spec.nodes();
  executor_.attach(run);  // the agents' answers go to this probe step until it has ended
  probe_ = &run;          // and a cancel of the calibration ends it
  struct Detach {
    Calibrator& calibrator;
    const StepExchange& run;
    ~Detach() {
      calibrator.executor_.detach(run);
      calibrator.probe_ = nullptr;
    }
  } detach{*this, run};
  const std::string what =
      "calibration " + std::to_string(c.id) + ": " + describe(step, c.request.senders, c.request.receivers);
  JobPlans plans(id, "", spec, probe.plan, executor_.storages(spec.nodes()), executor_.addresses(spec.nodes()));
  const auto cancelled = [&] {
    executor_.abort(run, plans, "cancelled by the operator");
    return error::Error("cancelled by the operator during its " + what.substr(what.find(": ") + 2));
  };
  if (std::optional<error::Refusal> refused =
          co_await executor_.offer(run, plans, std::chrono::milliseconds(0), options_.step_attempts);
      run.cancel_requested) {
    throw cancelled();
  } else if (refused) {
    executor_.abort(run, plans, refused->reason);
    throw error::Error(what + ": " + refused->reason);
  }
  const StepOutcome outcome = co_await executor_.run_step(run, plans, 0, probe.plan.steps.at(0).predicted_seconds);
  if (run.cancel_requested) throw cancelled();
  if (!outcome.ok) {
    executor_.abort(run, plans, "calibration " + std::to_string(c.id) + " failed");
    throw error::Error(what + " failed " + std::to_string(outcome.attempts) + " times: " + outcome.failures->reason);
  }
  if (std::optional<error::Refusal> lost = co_await executor_.end(run, plans))
    throw error::Error(what + ": " + lost->reason);
  co_return outcome.measured;
}

std::optional<std::string> Calibrator::status() const {
  if (!calibrating_) return std::nullopt;
  return "calibration " + std::to_string(calibrating_->id) + ": " + calibrating_->phase + ", probe step " +
         std::to_string(calibrating_->steps + 1);
}

}  // namespace baton::coordinator
