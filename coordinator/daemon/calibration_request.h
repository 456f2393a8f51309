// A calibration as requested of the coordinator's API (docs/calibration.md):
//
//   {"senders": ["s1", "s2"], "receivers": ["r1", "r2"], "flow_seconds": 0.4}
//
// `flow_seconds` (optional) is how long one probe flow should last.
#pragma once

#include "coordinator/calibration/prober.h"

#include <cstddef>
#include <string>
#include <vector>

namespace baton::coordinator {

// The largest calibration request the API reads (docs/security.md, "Bounded queues and
// bodies"): 4096 senders and 4096 receivers of 256-byte node ids, written plainly, take
// about 2.1 MiB. A larger body is refused (413) as it arrives, never held whole or parsed:
// a 16 MiB body of small array elements parsed into 0.4 GiB.
inline constexpr std::size_t kMaxCalibrationBytes = std::size_t{4} << 20;
// The longest node id (an agent's node_id is at most 256 bytes).
inline constexpr std::size_t kMaxNodeIdBytes = 256;

struct CalibrationRequest {
  std::vector<std::string> senders, receivers;
  calibration::ProbeOptions probe;
};

// Throws json::InputError (one line naming the field) for bad input: a document larger
// than kMaxCalibrationBytes (refused before it is parsed), a missing or empty group, a
// node id longer than kMaxNodeIdBytes, a node listed twice or in both groups,
// flow_seconds outside [0.05, 10].
CalibrationRequest parse_calibration_request(const std::string& document);

}  // namespace baton::coordinator
