// In-place jobs (docs/runtime.md, "In-place jobs"): the coordinator names in a plan the
// destinations the job also reads; their chunks go to a staging file beside each one, and
// when the coordinator ends the job the staging file replaces the destination. Until then
// the destination is untouched, so every read of the job sees the bytes as they were.
#pragma once

#include "protocol/baton.pb.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace baton::agent {

// [begin, end) byte ranges.
using ByteRanges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

class Staging {
 public:
  virtual ~Staging() = default;
  // Makes the staging file ready for the job's chunks: kept as it is when it exists (a
  // restarted agent resuming the job: its earlier steps are in it, durably), else
  // created empty. Throws error::SystemError naming the file.
  virtual void prepare(const protocol::StagedFile& staged) = 0;
  // Copies into the staging file the destination's bytes the job did not write (outside
  // `written`, sorted and disjoint), makes it durable, and renames it over the
  // destination. Throws error::SystemError naming the file.
  virtual void commit(const protocol::StagedFile& staged, const ByteRanges& written) = 0;
  // Removes the staging file (the job was aborted): the destination stays as it was.
  virtual void discard(const protocol::StagedFile& staged) = 0;
};

// The byte ranges of `staging` that `plan` writes (its received chunks and combine
// outputs), sorted and merged.
ByteRanges written_ranges(const protocol::Plan& plan, const std::string& staging);

}  // namespace baton::agent
