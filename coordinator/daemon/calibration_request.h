// A calibration as requested of the coordinator's API (docs/calibration.md):
//
//   {"senders": ["s1", "s2"], "receivers": ["r1", "r2"], "flow_seconds": 0.4}
//
// `flow_seconds` (optional) is how long one probe flow should last.
#pragma once

#include "coordinator/calibration/prober.h"

#include <string>
#include <vector>

namespace baton::coordinator {

struct CalibrationRequest {
  std::vector<std::string> senders, receivers;
  calibration::ProbeOptions probe;
};

// Throws json::InputError (one line naming the field) for bad input: a missing or empty
// group, a node listed twice or in both groups, flow_seconds outside [0.05, 10].
CalibrationRequest parse_calibration_request(const std::string& document);

}  // namespace baton::coordinator
