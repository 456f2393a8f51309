#include "coordinator/daemon/calibrations.h"

namespace baton::coordinator {
namespace {

using Json = nlohmann::ordered_json;

std::vector<std::string> strings(const Json& json, const char* name) {
  std::vector<std::string> out;
  if (json.is_object() && json.contains(name) && json.at(name).is_array()) {
    for (const Json& v : json.at(name)) {
      if (v.is_string()) out.push_back(v.get<std::string>());
    }
  }
  return out;
}

}  // namespace

void Calibrations::load() {
  read();
  for (auto& [id, c] : all_) {
    if (ended(c.state)) continue;
    c.state = journal::CalibrationState::failed;
    c.error = "the coordinator stopped before it ended; calibrate again";
    journal_.set_calibration(c.id, c.state, c.error);
  }
}

void Calibrations::read() {
  all_.clear();
  for (const journal::CalibrationRecord& record : journal_.calibrations()) {
    TrackedCalibration c;
    c.id = record.id;
    c.requested = record.requested;
    c.finished = record.finished;
    c.state = record.state;
    c.error = record.error;
    try {
      const Json request = Json::parse(record.request);
      c.request.senders = strings(request, "senders");
      c.request.receivers = strings(request, "receivers");
      if (record.state == journal::CalibrationState::done) {
        const Json result = Json::parse(record.result);
        c.result = calibration::from_json(result);
        c.seconds = result.value("seconds", 0.0);
      }
    } catch (const std::exception& e) {
      c.state = journal::CalibrationState::failed;
      c.result.reset();
      c.error = std::string("its journal record does not read: ") + e.what();
    }
    all_[c.id] = std::move(c);
  }
}

std::uint64_t Calibrations::add(CalibrationRequest request, const std::string& json) {
  const std::uint64_t id = journal_.add_calibration(json);
  TrackedCalibration c;
  c.id = id;
  c.requested = journal::utc_now();
  c.request = std::move(request);
  all_[id] = std::move(c);
  queue_.push_back(id);
  return id;
}

TrackedCalibration* Calibrations::next_queued() { return queue_.empty() ? nullptr : &all_.at(queue_.front()); }

void Calibrations::start(TrackedCalibration& c) {
  std::erase(queue_, c.id);
  running_ = true;
  c.state = journal::CalibrationState::running;
  journal_.set_calibration(c.id, c.state);
}

void Calibrations::cancel_queued(TrackedCalibration& c) {
  std::erase(queue_, c.id);
  c.state = journal::CalibrationState::cancelled;
  c.error = "cancelled before it started";
  journal_.set_calibration(c.id, c.state, c.error);
  c.finished = journal::utc_now();
}

void Calibrations::finish(TrackedCalibration& c, std::optional<calibration::Calibration> result,
                          const std::string& error, double seconds) {
  running_ = false;
  c.state = result               ? journal::CalibrationState::done
            : c.cancel_requested ? journal::CalibrationState::cancelled
                                 : journal::CalibrationState::failed;
  c.error = error;
  c.seconds = seconds;
  c.result = std::move(result);
  c.phase.clear();
  Json stored;
  if (c.result) {
    stored = calibration::to_json(*c.result);
    stored["seconds"] = seconds;
  }
  journal_.set_calibration(c.id, c.state, c.error, c.result ? stored.dump() : "");
  c.finished = journal::utc_now();
}

const TrackedCalibration* Calibrations::find(std::uint64_t id) const {
  const auto it = all_.find(id);
  return it == all_.end() ? nullptr : &it->second;
}

TrackedCalibration* Calibrations::find(std::uint64_t id) {
  const auto it = all_.find(id);
  return it == all_.end() ? nullptr : &it->second;
}

const TrackedCalibration* Calibrations::latest_covering(const jobs::Clusters& clusters) const {
  for (auto it = all_.rbegin(); it != all_.rend(); ++it) {
    if (it->second.result && calibration::covers(*it->second.result, clusters)) return &it->second;
  }
  return nullptr;
}

const TrackedCalibration* Calibrations::latest_done() const {
  for (auto it = all_.rbegin(); it != all_.rend(); ++it) {
    if (it->second.result) return &it->second;
  }
  return nullptr;
}

report::CalibrationReport Calibrations::report(const TrackedCalibration& c) {
  report::CalibrationReport out{.id = std::to_string(c.id),
                                .state = c.state,
                                .error = c.error,
                                .requested = c.requested,
                                .finished = c.finished,
                                .seconds = c.seconds,
                                .senders = c.request.senders,
                                .receivers = c.request.receivers,
                                .progress = std::nullopt,
                                .result = c.result};
  if (c.state == journal::CalibrationState::running)
    out.progress = report::ProbeProgress{.phase = c.phase, .steps = c.steps};
  return out;
}

std::vector<report::CalibrationLine> Calibrations::lines() const {
  std::vector<report::CalibrationLine> out;
  for (const auto& [id, c] : all_) {
    report::CalibrationLine line{.id = std::to_string(id),
                                 .state = c.state,
                                 .requested = c.requested,
                                 .finished = c.finished,
                                 .model = std::nullopt};
    if (c.result)
      line.model = report::ModelLine{.k = c.result->k, .d = c.result->d, .D = c.result->D, .beta = c.result->beta};
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace baton::coordinator
