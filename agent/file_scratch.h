// Scratch objects as files, the daemon's: <data root>/.baton-scratch/<node>/<job>.<n>/NAME,
// opened through the data root like every other file (agent/data_root.h). Files keep a
// large partial result in the page cache, not in the agent's memory.
#pragma once

#include "agent/data_root.h"
#include "agent/scratch.h"

namespace baton::agent {

class FileScratch final : public ScratchSpace {
 public:
  // Removes what an earlier process of node `node_id` left under `root` (a crash leaves
  // its job's scratch files behind). Throws an error::Error naming what failed.
  FileScratch(const DataRoot& root, const std::string& node_id);
  std::unique_ptr<Storage> open(std::uint64_t job_number, const std::map<std::string, std::uint64_t>& sizes) override;

  // This node's directory of scratch directories, under the root.
  const std::string& directory() const noexcept { return directory_; }

 private:
  const DataRoot& root_;
  std::string directory_;
  std::uint64_t opened_ = 0;  // two plans of one job (a restarted coordinator) never share a directory
};

}  // namespace baton::agent
