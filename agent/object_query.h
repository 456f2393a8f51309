// The coordinator asks a node about the objects a job would read or write, before it
// accepts the job (ObjectQuery, docs/collectives.md, "Jobs"): for each name, whether a
// regular file (or a registered region) is there that the agent may read, its size, or
// why not, and which file the name is (agent/file_identity.h). Never
// blocks: a FIFO is looked at, not opened for reading (agent/data_root.h).
#pragma once

#include "agent/storage.h"
#include "protocol/baton.pb.h"

namespace baton::agent {

// A query may name at most this many objects: the answer, names and errors included, then
// stays well within a control frame.
inline constexpr int max_queried_objects = 1024;

// The answer to `query`, one ObjectInfo per name in the query's order (or, past the limit,
// one that says so).
protocol::ObjectAnswer answer(const protocol::ObjectQuery& query, Storage& storage);

}  // namespace baton::agent
