// The coordinator's part in calibration (docs/calibration.md): the API's requests (queue,
// cancel, reports), a calibration's probe steps run as one-step runs of their own through
// the step executor when the driver's run loop gives it its turn (between jobs), and the
// platform of a job submitted without "platform" taken from what was measured.
//
// Calibration is of the cluster, not of a job: the calibrator holds the calibrations
// (Calibrations) and the one running, and uses of the coordinator only the agents, the
// step executor, the run loop's events, the clock and the options.
//
// Threading: the io thread's, like the driver's.
#pragma once

#include "coordinator/calibration/prober.h"
#include "coordinator/daemon/agent_directory.h"
#include "coordinator/daemon/calibration_request.h"
#include "coordinator/daemon/calibrations.h"
#include "coordinator/daemon/clock.h"
#include "coordinator/daemon/driver_options.h"
#include "coordinator/daemon/event_wait.h"
#include "coordinator/daemon/job_spec.h"
#include "coordinator/daemon/step_exchange.h"
#include "coordinator/daemon/step_executor.h"
#include "coordinator/journal/journal.h"
#include "coordinator/report/calibration_report.h"
#include "log/log.h"

#include <asio/awaitable.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace baton::coordinator {

class Calibrator {
 public:
  using Json = nlohmann::ordered_json;

  // `events` is notified when a calibration is queued or cancelled (the run loop waits on
  // it).
  Calibrator(AgentDirectory& agents, journal::Store& journal, StepExecutor& executor, EventWait& events, Clock& clock,
             const DriverOptions& options, log::Logger& log);

  // Learns the journal's calibrations (Calibrations::load).
  void load();

  // Queues a calibration of the platform between `request`'s groups (docs/calibration.md)
  // and journals `json`; returns its id. RequestError(bad_request) names unregistered nodes.
  std::uint64_t calibrate(CalibrationRequest request, const std::string& json);
  // Cancels a queued calibration, or ends a running one at once (its probe step aborted on
  // the agents). RequestError(not_found) for an unknown one, (conflict) when it ended.
  Json cancel(std::uint64_t id);
  // RequestError(not_found) for an unknown calibration.
  report::CalibrationReport report(std::uint64_t id) const;
  Json calibration(std::uint64_t id) const;  // report as the API's JSON
  Json calibrations() const;
  // The newest done calibration, or none.
  std::optional<report::CalibrationReport> latest() const;

  // A job without "platform" gets the newest calibration of its nodes; returns the job's
  // JSON to journal (with that platform and calibration in it). RequestError(bad_request)
  // says how to calibrate when there is none.
  std::string resolve_platform(JobSpec& spec, const std::string& json) const;

  // The oldest queued calibration, or null.
  TrackedCalibration* next_queued() { return calibrations_.next_queued(); }
  // Runs `c` to its end, probe step after probe step; the step executor is the
  // calibration's meanwhile.
  asio::awaitable<void> run(TrackedCalibration& c);
  // While one runs, what it does, for the driver's status: "calibration 2: ..., probe step
  // 3"; else none.
  std::optional<std::string> status() const;

 private:
  // Runs one probe step as a one-step run of its own through the step executor; its
  // measured seconds. Throws std::runtime_error naming the step and why it failed.
  asio::awaitable<double> run_probe(TrackedCalibration& c, const calibration::ProbeStep& step);

  AgentDirectory& agents_;
  StepExecutor& executor_;
  EventWait& events_;
  Clock& clock_;
  const DriverOptions& options_;
  log::Logger& log_;
  Calibrations calibrations_;
  TrackedCalibration* calibrating_ = nullptr;  // the calibration running, if any
  StepExchange* probe_ = nullptr;              // its probe step running, if any
  std::uint64_t probes_ = 0;                   // probe steps run so far (their ids)
};

}  // namespace baton::coordinator
