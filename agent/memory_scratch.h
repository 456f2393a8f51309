// Scratch objects in memory, the embedded agent's (docs/embedding.md): one allocation per
// object, of the size the plan writes into it, made when the plan is accepted.
#pragma once

#include "agent/scratch.h"

namespace baton::agent {

class MemoryScratch final : public ScratchSpace {
 public:
  std::unique_ptr<Storage> open(std::uint64_t job_number, const std::map<std::string, std::uint64_t>& sizes) override;
};

}  // namespace baton::agent
