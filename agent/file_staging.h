// Staging (agent/destination_staging.h) for files under the agent's data root.
#pragma once

#include "agent/data_root.h"
#include "agent/destination_staging.h"

namespace baton::agent {

class FileStaging final : public Staging {
 public:
  explicit FileStaging(const DataRoot& root) : root_(root) {}
  void prepare(const protocol::StagedFile& staged) override;
  void commit(const protocol::StagedFile& staged, const ByteRanges& written) override;
  void discard(const protocol::StagedFile& staged) override;

 private:
  const DataRoot& root_;
};

// "files:<machine id>:<device>:<inode>" of the data root: equal for two agents exactly
// when they share it (Register.storage_id).
std::string storage_id(const DataRoot& root);

}  // namespace baton::agent
