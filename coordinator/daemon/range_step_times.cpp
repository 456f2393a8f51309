#include "coordinator/daemon/range_step_times.h"

#include <algorithm>

namespace baton::coordinator {
namespace {

Clock::duration span(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// A time an agent sent, within [0, the range's age]: no member has been in the range longer
// than since its release. A value not a number, negative or past that (a faulty agent's)
// is taken as the nearest bound, never converted as it came (a NaN or a huge double does
// not fit a duration).
double within_range(double seconds, double range_age) {
  if (!(seconds > 0)) return 0;
  return std::min(seconds, range_age);
}

}  // namespace

RangeStepTimes range_step_times(bool first_step, const PassedWord& word, const std::optional<PassedWord>& first_word,
                                Clock::time_point released, Clock::time_point now) {
  if (first_step) return {.began = released, .measured = seconds_between(released, word.heard)};
  const double age = std::max(0.0, seconds_between(released, now));
  const double seconds = within_range(word.seconds, age), started = within_range(word.started, age);
  if (first_word && started > 0) {
    const double first_seconds = within_range(first_word->seconds, age);
    return {.began = first_word->heard + span(started - first_seconds), .measured = seconds};
  }
  return {.began = now - span(seconds), .measured = seconds};
}

}  // namespace baton::coordinator
