// An independent check of any multiple multicast schedule against its problem. It shares
// no code with the schedulers: it counts deliveries, checks who relays what and when, and
// replays the lists in the simulator to compare every time.
#pragma once

#include "coordinator/schedule/multicast/problem.h"
#include "coordinator/schedule/multicast/schedule.h"

#include <string>
#include <vector>

namespace baton::schedule::multicast {

struct ValidationOptions {
  double tolerance = 1e-9;  // times may differ by this fraction of the completion time
};

struct Validation {
  std::vector<std::string> errors;  // empty when valid (at most 20 kept)
  double completion_time = 0;       // recomputed by the simulator
  bool ok() const { return errors.empty(); }
};

// Checks, for a well-formed problem:
//  - one task list per node; every peer and multicast index in range, no task with itself;
//  - every destination of every multicast receives it exactly once, and no other node
//    receives it;
//  - a send of m_k goes from the source or a destination of m_k to a destination of m_k;
//    sender and receiver lists agree: each send has exactly one matching receive and each
//    receive exactly one matching send;
//  - a node relays m_k (sends it without being its source) only after its receive of m_k,
//    both in list order and in time;
//  - the stored times: a send lasts S(i, l_k), a receive lasts R(j, l_k) and starts no
//    earlier than its message arrives, a node's tasks do not overlap, and the simulator's
//    times for the same lists equal the stored ones.
Validation validate(const Problem& problem, const std::vector<TaskList>& tasks, const ValidationOptions& options = {});

}  // namespace baton::schedule::multicast
