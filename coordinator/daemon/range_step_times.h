// When a step of a self-paced range ran, on the coordinator's clock (docs/runtime.md,
// "Self-paced steps"), from what the range's first member says in its StepPassed and when
// each StepPassed came.
#pragma once

#include "coordinator/daemon/clock.h"

#include <optional>

namespace baton::coordinator {

struct RangeStepTimes {
  Clock::time_point began{};
  double measured = 0;  // seconds
};

// What the first member said of a step of the range (StepPassed) and when it came.
struct PassedWord {
  double seconds = 0;  // its time in the step: from its start of it to the barrier's decision
  double started = 0;  // its start of the step, in seconds after its start of the range
  Clock::time_point heard{};
};

// `step` of the range released at `released`, whose first step's word is `first_word`
// (none yet: a word lost to an older member, which the fallback covers).
//
// The range's first step began for each member when the release reached it, and the first
// member may hear it last: that step is timed on this clock, from the release to its word,
// which holds every member's time in it. A later step begins for the others once the first
// member's decision reaches them, so the first member's own time holds theirs; it follows
// the first step's end by that member's time since its first decision. A member older than
// StepPassed.started says 0 for every later step: its start is reckoned back from `now`.
// The member's times are taken within [0, now - released] (a faulty member's NaN, negative
// or huge time at that bound).
RangeStepTimes range_step_times(bool first_step, const PassedWord& word, const std::optional<PassedWord>& first_word,
                                Clock::time_point released, Clock::time_point now);

}  // namespace baton::coordinator
