// What every journal store must do the same way (coordinator/journal/journal.h, `Store`),
// checked on a store the caller opens: SQLite on a file, etcd under a prefix. `open` gives
// a new store on the same records each time it is called (a restarted coordinator).
#pragma once

#include "coordinator/journal/journal.h"

#include <functional>
#include <memory>

namespace baton::journal::test {

using OpenStore = std::function<std::unique_ptr<Store>()>;

// Jobs, states, reports and steps written, read back, and read again by a new store.
void check_jobs_round_trip(const OpenStore& open);
// Calibrations and re-plans, with their refusals.
void check_calibrations_and_replans(const OpenStore& open);
// The identities of a job's files, kept with the job and read again by a new store.
void check_identities(const OpenStore& open);

}  // namespace baton::journal::test
