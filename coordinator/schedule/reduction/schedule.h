// A reduction schedule: every transfer with its sender, receiver and time window.
#pragma once

#include <cstddef>
#include <vector>

namespace baton::schedule::reduction {

struct Transfer {
  std::size_t src = 0;  // the sender; sends its combined message once
  std::size_t dst = 0;  // the receiver; combines what it receives
  double start = 0;
  double end = 0;  // start + times[src]
};

struct Schedule {
  std::vector<Transfer> transfers;
};

// The latest end of a transfer; 0 for an empty schedule (a single node).
double makespan(const Schedule& schedule);

// Orders the transfers by start time, then sender: the order plans are printed in.
void sort_by_start(Schedule& schedule);

}  // namespace baton::schedule::reduction
