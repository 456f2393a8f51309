#include "coordinator/daemon/range_step_times.h"

namespace baton::coordinator {
namespace {

Clock::duration span(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace

RangeStepTimes range_step_times(bool first_step, const PassedWord& word, const std::optional<PassedWord>& first_word,
                                Clock::time_point released, Clock::time_point now) {
  if (first_step) return {.began = released, .measured = seconds_between(released, word.heard)};
  if (first_word && word.started > 0) {
    return {.began = first_word->heard + span(word.started - first_word->seconds), .measured = word.seconds};
  }
  return {.began = now - span(word.seconds), .measured = word.seconds};
}

}  // namespace baton::coordinator
