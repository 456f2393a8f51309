// An independent check of a buffered multicast schedule: it shares no code with the
// planners and simulates the buffer rules of docs/formats.md round by round.
//
// The rules: rounds start at 1. A processor sends at most one message per round; a sent
// message reaches all the destinations of that send in its round. A message arriving in a
// round joins its receiver's queue; after the round's arrivals the queue may hold at most
// `buffers` messages; then the processor takes one message off its queue. `rounds` is the
// last round in which any processor takes a message.
#pragma once

#include "coordinator/schedule/buffered_multicast/problem.h"
#include "coordinator/schedule/buffered_multicast/schedule.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace baton::schedule::buffered_multicast {

// A queue that held more than `buffers` messages after a round's arrivals.
struct Overflow {
  ProcessorId processor = 0;
  std::uint64_t round = 0;
  std::size_t held = 0;
};

struct Validation {
  // Broken rules other than overflow: bad indices, a round < 1, a processor sending twice in
  // one round, a (message, destination) pair delivered twice or never. At most the first
  // few are kept; error_count counts them all.
  std::vector<std::string> errors;
  std::size_t error_count = 0;
  // Overflows count every (processor, round) whose queue exceeded `buffers`. The simulation
  // keeps the excess messages (as if the buffers were larger) so rounds stays meaningful.
  std::size_t overflow_count = 0;
  std::optional<Overflow> first_overflow;
  std::uint64_t rounds = 0;       // the last round any processor takes a message; 0 if none
  std::uint64_t busy_rounds = 0;  // rounds in 1..rounds in which some processor takes one
  std::size_t max_held = 0;       // the most messages any queue held after arrivals

  bool ok() const { return error_count == 0 && overflow_count == 0; }
  // One line: "ok: 7 rounds" or the first error / overflow.
  std::string summary() const;
};

// Checks `schedule` against `problem` and simulates every receiver's queue. Time
// O(n + m + E log E): each simulated round takes one message, so idle rounds are skipped.
Validation validate(const Problem& problem, const Schedule& schedule);

}  // namespace baton::schedule::buffered_multicast
