// A job's life at the coordinator (docs/runtime.md, "Steps"): queued → planning → running
// → done | failed | cancelled. The names are the API's and the journal's.
#pragma once

#include <optional>
#include <string_view>

namespace baton::coordinator {

enum class JobState { queued, planning, running, done, failed, cancelled };

constexpr std::string_view name(JobState state) {
  switch (state) {
    case JobState::queued: return "queued";
    case JobState::planning: return "planning";
    case JobState::running: return "running";
    case JobState::done: return "done";
    case JobState::failed: return "failed";
    case JobState::cancelled: return "cancelled";
  }
  return "unknown";
}

constexpr bool ended(JobState state) {
  return state == JobState::done || state == JobState::failed || state == JobState::cancelled;
}

// The state named `text` (as the journal holds it), or nothing.
constexpr std::optional<JobState> parse_job_state(std::string_view text) {
  for (JobState s : {JobState::queued, JobState::planning, JobState::running, JobState::done, JobState::failed,
                     JobState::cancelled}) {
    if (name(s) == text) return s;
  }
  return std::nullopt;
}

}  // namespace baton::coordinator
