// The coordinator's calibrations (docs/calibration.md): requested through the API, run by
// the driver between jobs, journaled with their dates and results. Jobs without a
// "platform" are planned on the newest one that calibrated their nodes.
//
// Threading: the io thread's, like the driver's.
#pragma once

#include "coordinator/calibration/calibration.h"
#include "coordinator/daemon/calibration_request.h"
#include "coordinator/journal/journal.h"
#include "coordinator/report/calibration_report.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace baton::coordinator {

struct TrackedCalibration {
  std::uint64_t id = 0;
  std::string requested, finished;  // UTC, ISO 8601
  journal::CalibrationState state = journal::CalibrationState::queued;
  std::string error;
  CalibrationRequest request;
  std::optional<calibration::Calibration> result;
  double seconds = 0;  // how long it took, first probe to last
  std::string phase;   // while running: the probe phase
  int steps = 0;       // while running: probe steps so far
  bool cancel_requested = false;
};

class Calibrations {
 public:
  explicit Calibrations(journal::Store& journal) : journal_(journal) {}

  // Learns the journal's calibrations. One the previous coordinator left queued or running
  // is failed: its probes died with it.
  void load();
  // Learns the journal's calibrations as they stand, writing nothing: a standby's view
  // (docs/ha.md), where one queued or running is the leader's.
  void read();
  // Journals and queues a calibration; returns its id.
  std::uint64_t add(CalibrationRequest request, const std::string& json);
  // The oldest queued one, or null.
  TrackedCalibration* next_queued();
  void start(TrackedCalibration& c);
  // Cancels a queued one: it never runs.
  void cancel_queued(TrackedCalibration& c);
  // Ends it: done with `result`, cancelled when that was requested, or failed with `error`.
  void finish(TrackedCalibration& c, std::optional<calibration::Calibration> result, const std::string& error,
              double seconds);

  const TrackedCalibration* find(std::uint64_t id) const;
  // The newest done calibration whose senders and receivers include `clusters`', or null.
  const TrackedCalibration* latest_covering(const jobs::Clusters& clusters) const;
  // The newest done one, or null.
  const TrackedCalibration* latest_done() const;
  bool any_pending() const { return !queue_.empty() || running_; }
  std::size_t queued() const { return queue_.size(); }
  TrackedCalibration* find(std::uint64_t id);

  // GET /v1/calibrations/ID: the request, state, dates, time taken, the progress while
  // running and the result once done.
  static report::CalibrationReport report(const TrackedCalibration& c);
  // GET /v1/calibrations: one line each (id, state, dates, the figures once done), newest last.
  std::vector<report::CalibrationLine> lines() const;

 private:
  journal::Store& journal_;
  std::map<std::uint64_t, TrackedCalibration> all_;
  std::deque<std::uint64_t> queue_;
  bool running_ = false;
};

}  // namespace baton::coordinator
