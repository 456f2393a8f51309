#include "coordinator/report/calibration_report.h"

#include "coordinator/json/fields.h"

#include <limits>

namespace baton::report {
namespace {

using json::element_path;
using json::member_path;

int small_count(const Json& object, const std::string& parent, const char* name) {
  return static_cast<int>(json::require_integer(json::require_member(object, parent, name), member_path(parent, name),
                                                0, std::numeric_limits<int>::max()));
}

CalibrationState state_of(const Json& object, const std::string& parent) {
  return parse_calibration_state(json::text(object, parent, "state"), member_path(parent, "state"));
}

}  // namespace

CalibrationState parse_calibration_state(const std::string& text, const std::string& path) {
  if (const std::optional<CalibrationState> state = calibration::parse_calibration_state(text)) return *state;
  throw json::InputError(path + ": unknown calibration state \"" + text + "\"");
}

Json to_json(const CalibrationReport& c) {
  Json out{{"id", c.id},
           {"state", name(c.state)},
           {"error", c.error},
           {"requested", c.requested},
           {"finished", c.finished},
           {"seconds", c.seconds},
           {"senders", c.senders},
           {"receivers", c.receivers}};
  if (c.progress) {
    out["phase"] = c.progress->phase;
    out["probe_steps"] = c.progress->steps;
  }
  if (c.result) {
    const Json result = calibration::to_json(*c.result);
    for (const auto& [key, value] : result.items()) out[key] = value;
  }
  return out;
}

CalibrationReport parse_calibration_report(const Json& value) {
  if (!value.is_object()) throw json::InputError("calibration: must be an object");
  CalibrationReport c{.id = json::text(value, "", "id"),
                      .state = state_of(value, ""),
                      .error = json::text(value, "", "error"),
                      .requested = json::text(value, "", "requested"),
                      .finished = json::text(value, "", "finished"),
                      .seconds = json::number(value, "", "seconds"),
                      .senders = json::names(value, "", "senders"),
                      .receivers = json::names(value, "", "receivers"),
                      .progress = std::nullopt,
                      .result = std::nullopt};
  if (c.state == CalibrationState::running)
    c.progress = ProbeProgress{.phase = json::text(value, "", "phase"), .steps = small_count(value, "", "probe_steps")};
  if (c.state == CalibrationState::done) c.result = calibration::from_json(value);
  return c;
}

Json calibration_list_json(const std::vector<CalibrationLine>& lines) {
  Json list = Json::array();
  for (const CalibrationLine& c : lines) {
    Json line{{"id", c.id}, {"state", name(c.state)}, {"requested", c.requested}, {"finished", c.finished}};
    if (c.model) {
      line["d"] = c.model->d;
      line["D"] = c.model->D;
      line["beta"] = c.model->beta;
      line["k"] = c.model->k;
    }
    list.push_back(std::move(line));
  }
  return Json{{"calibrations", std::move(list)}};
}

std::vector<CalibrationLine> parse_calibration_list(const Json& answer) {
  json::object_at(answer, "");
  const std::string path = "calibrations";
  const Json& list =
      json::require_array(json::require_member(answer, "", path), path, 0, std::numeric_limits<std::size_t>::max());
  std::vector<CalibrationLine> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = element_path(path, i);
    const Json& c = json::object_at(list[i], at);
    CalibrationLine line{.id = json::text(c, at, "id"),
                         .state = state_of(c, at),
                         .requested = json::text(c, at, "requested"),
                         .finished = json::text(c, at, "finished"),
                         .model = std::nullopt};
    if (line.state == CalibrationState::done) {
      line.model = ModelLine{.k = small_count(c, at, "k"),
                             .d = json::number(c, at, "d"),
                             .D = json::number(c, at, "D"),
                             .beta = json::number(c, at, "beta")};
    }
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace baton::report
