// A job as the journal holds it (docs/journal.md), for a coordinator that did not run it:
// a leader learning the jobs an earlier coordinator ended, and a standby answering reads
// from the shared journal (docs/ha.md).
#pragma once

#include "coordinator/daemon/job_state.h"
#include "coordinator/daemon/tracked_job.h"
#include "coordinator/journal/journal.h"
#include "log/log.h"

#include <memory>

namespace baton::coordinator {

// A job that ended (`state`): its final report when the journal kept one that parses,
// else its record, spec and finished steps (a journal of schema 1). A report that does
// not parse is said on `log`.
std::unique_ptr<TrackedJob> ended_job(journal::Store& journal, const journal::JobRecord& record, JobState state,
                                      const log::Logger& log);

// A job not ended (`state`: queued, planning or running), as far as the journal knows it:
// its spec and its finished steps. The leader holds the rest (its plan, the running
// step's progress) in memory.
std::unique_ptr<TrackedJob> unfinished_job(journal::Store& journal, const journal::JobRecord& record, JobState state);

}  // namespace baton::coordinator
