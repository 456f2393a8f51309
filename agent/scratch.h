// Scratch objects (docs/collectives.md, "Tasks"): what a node keeps for a job between its
// tasks (an incoming partial result waiting to be combined, a combined one waiting to be
// sent), named "scratch:NAME" in its plan, private to the job and gone when it ends.
#pragma once

#include "agent/storage.h"
#include "error/refusal.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace baton::agent {

inline constexpr std::string_view scratch_prefix = "scratch:";
inline constexpr std::size_t max_scratch_name = 128;
// Where the daemon keeps them, under its data root (agent/file_scratch.h): plans may not
// name files in it.
inline constexpr std::string_view scratch_directory = ".baton-scratch";

// Whether a plan's object name is a scratch object's.
inline bool is_scratch(std::string_view name) { return name.substr(0, scratch_prefix.size()) == scratch_prefix; }

// Nothing when `name` is a well-formed scratch name: the prefix and 1 to 128 of [A-Za-z0-9._-],
// not starting with '.': one plain file name, which cannot lead out of its directory.
std::optional<error::Refusal> check_scratch_name(std::string_view name);

// Where a node keeps its jobs' scratch objects: files under the daemon's data root
// (agent/file_scratch.h), memory in the embedded agent (agent/memory_scratch.h).
class ScratchSpace {
 public:
  virtual ~ScratchSpace() = default;
  // The scratch objects of job `job_number`, made empty now, each with room for its size
  // in `sizes` (by full name; agent/plan_check.h's scratch_sizes). Dropping the storage
  // removes them; a flow still writing into one keeps what it writes into alive until it
  // ends. Throws an error::Error naming what failed.
  virtual std::unique_ptr<Storage> open(std::uint64_t job_number,
                                        const std::map<std::string, std::uint64_t>& sizes) = 0;
};

}  // namespace baton::agent
