// A KPBS schedule: a sequence of steps, each a set of transfers run at the same time.
#pragma once

#include <cstddef>
#include <vector>

namespace baton::schedule::kpbs {

struct Transfer {
  std::size_t src = 0;  // sender (row of the matrix)
  std::size_t dst = 0;  // receiver (column)
  double amount = 0;    // in the unit of the matrix the schedule was made for
};

struct Step {
  std::vector<Transfer> transfers;
  double duration = 0;  // the longest transfer of the step, in time
};

struct Schedule {
  std::vector<Step> steps;
};

// Sets every step's duration to its longest transfer divided by `rate` (amount per time
// unit; 1 when amounts are already times).
void set_durations(Schedule& schedule, double rate = 1.0);

// Σ (β + duration) over the steps (Section 2.2, item 3 of KPBS).
double cost(const Schedule& schedule, double beta);

}  // namespace baton::schedule::kpbs
