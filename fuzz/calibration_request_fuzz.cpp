// A calibration request as the coordinator's API receives it (POST /v1/calibrations,
// coordinator/daemon/calibration_request.h). json::InputError is the documented outcome
// of bad input; what is accepted must hold what the parser promises, or the target aborts.
#include "coordinator/daemon/calibration_request.h"
#include "coordinator/json/input.h"

#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

namespace bc = baton::coordinator;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string document(reinterpret_cast<const char*>(data), size);
  try {
    const bc::CalibrationRequest request = bc::parse_calibration_request(document);
    if (document.size() > bc::kMaxCalibrationBytes) std::abort();
    std::set<std::string> nodes;
    for (const auto* group : {&request.senders, &request.receivers}) {
      if (group->empty() || group->size() > 4096) std::abort();
      for (const std::string& node : *group) {
        if (node.empty() || node.size() > bc::kMaxNodeIdBytes || !nodes.insert(node).second) std::abort();
      }
    }
    if (!(request.probe.flow_seconds >= 0.05 && request.probe.flow_seconds <= 10)) std::abort();
  } catch (const baton::json::InputError&) {
  }
  return 0;
}
