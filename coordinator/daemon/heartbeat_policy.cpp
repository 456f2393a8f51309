#include "coordinator/daemon/heartbeat_policy.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace baton::coordinator {

std::chrono::milliseconds HeartbeatPolicy::interval(std::size_t agents) const {
  const double spread_ms = std::ceil(1000.0 * static_cast<double>(agents) / max_per_second);
  if (spread_ms >= static_cast<double>(kLongest.count())) return std::max(every, kLongest);
  return std::max(every, std::chrono::milliseconds(static_cast<std::int64_t>(spread_ms)));
}

}  // namespace baton::coordinator
