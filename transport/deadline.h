// The time left before a deadline, as the timeout of the next send or receive of a
// sequence that has one deadline in all (the data plane's and the control plane's
// handshakes). Never below 1 ms: a deadline that has passed gives the next operation the
// shortest timeout, so it fails as a timeout, not as a call without one.
#pragma once

#include <algorithm>
#include <chrono>

namespace baton::transport {

inline std::chrono::milliseconds time_left(std::chrono::steady_clock::time_point deadline) {
  return std::max(std::chrono::milliseconds(1),
                  std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()));
}

}  // namespace baton::transport
