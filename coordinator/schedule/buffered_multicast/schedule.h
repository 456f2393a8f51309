// A buffered multicast schedule: in which round each message goes to which destinations.
//
// The paper's procedures color every (message, destination) edge separately, so one
// message may be sent in several rounds, each time to a part of its destinations (the
// paper's lower-bound argument for l = d/2 counts such "bundles sent during two or more
// time periods"). A Send is one such transmission; a message that is not split has one
// Send naming all its destinations.
#pragma once

#include "coordinator/schedule/buffered_multicast/problem.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace baton::schedule::buffered_multicast {

struct Send {
  std::size_t message = 0;
  std::uint64_t round = 0;                // rounds start at 1
  std::vector<ProcessorId> destinations;  // reached in this round
};

struct Schedule {
  std::vector<Send> sends;  // the planners list them by round, then by message
};

}  // namespace baton::schedule::buffered_multicast
