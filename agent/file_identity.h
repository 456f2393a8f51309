// Which file an object name is (docs/runtime.md, "In-place jobs"): the coordinator decides
// whether two of a job's objects are one file on what the agents answer here, not on their
// names, so "./x", "d//x", a symlinked directory or a hard link cannot hide an in-place job.
#pragma once

#include "agent/data_root.h"

#include <string>
#include <string_view>

namespace baton::agent {

// This machine: /etc/machine-id, else its host name. Inode numbers mean something only
// together with it.
std::string machine_id();

// "files:<machine>:<device>:<inode>" of the file `name` leads to under `root`, or, for a
// name that does not exist yet, that of the deepest existing directory on its way followed
// by the missing components ("files:m:2049:77/out/x.bin"). Equal for two names (on one
// agent or on two agents sharing a file system) exactly when they are one file. Throws
// what DataRoot::resolve throws.
std::string file_identity(const DataRoot& root, std::string_view name);

}  // namespace baton::agent
