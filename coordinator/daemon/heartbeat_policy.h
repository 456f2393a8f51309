// How often agents heartbeat (docs/runtime.md, "Liveness"): every `every` in a small
// cluster, and less often as it grows, so that the coordinator answers at most
// `max_per_second` heartbeats a second. Each heartbeat costs the coordinator a receive and
// an echo (about 45 us on loopback, where the kernel's delivery to the agent is counted
// too): at 1 024 agents and one a second, 2/3 of its CPU over a job's steps
// (docs/runtime.md, "The heartbeat interval's share"). Nomad's servers scale their clients'
// heartbeat TTL the same way (`max_heartbeats_per_second`).
#pragma once

#include <chrono>
#include <cstddef>

namespace baton::coordinator {

struct HeartbeatPolicy {
  // The agents' read of the interval is clamped to [0.05, 60] s (agent/agent.cpp).
  static constexpr std::chrono::milliseconds kLongest{60'000};

  std::chrono::milliseconds every{1000};  // heartbeat_seconds: the shortest interval
  double max_per_second = 128;            // max_heartbeats_per_second

  // The interval for `agents` live sessions: max(every, agents / max_per_second), in whole
  // milliseconds rounded up, at most kLongest.
  std::chrono::milliseconds interval(std::size_t agents) const;
};

}  // namespace baton::coordinator
