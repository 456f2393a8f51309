// Where a calibration stands (docs/calibration.md): one enum for the journal, which stores
// it by name, and the API's report, which answers it by name.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace baton::calibration {

enum class CalibrationState { queued, running, done, failed, cancelled };

inline constexpr std::array<CalibrationState, 5> kCalibrationStates{CalibrationState::queued, CalibrationState::running,
                                                                    CalibrationState::done, CalibrationState::failed,
                                                                    CalibrationState::cancelled};

constexpr std::string_view name(CalibrationState state) {
  switch (state) {
    case CalibrationState::queued: return "queued";
    case CalibrationState::running: return "running";
    case CalibrationState::done: return "done";
    case CalibrationState::failed: return "failed";
    case CalibrationState::cancelled: return "cancelled";
  }
  return "failed";
}

// The state `text` names, or nothing for a name it does not know.
constexpr std::optional<CalibrationState> parse_calibration_state(std::string_view text) {
  for (const CalibrationState s : kCalibrationStates) {
    if (text == name(s)) return s;
  }
  return std::nullopt;
}

constexpr bool ended(CalibrationState state) {
  return state == CalibrationState::done || state == CalibrationState::failed || state == CalibrationState::cancelled;
}

}  // namespace baton::calibration
