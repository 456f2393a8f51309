// Storage over the files under the agent's data root: every open goes through DataRoot,
// so nothing a plan names can lead outside it.
#pragma once

#include "agent/data_root.h"
#include "agent/storage.h"

namespace baton::agent {

class FileStorage final : public Storage {
 public:
  explicit FileStorage(const DataRoot& root) : root_(root) {}
  std::unique_ptr<transport::Source> source(const std::string& name) override;
  std::unique_ptr<transport::Sink> sink(const std::string& name) override;
  ObjectStatus status(const std::string& name) override;

 private:
  // status() but the identity.
  ObjectStatus readable(const std::string& name);

  const DataRoot& root_;
};

}  // namespace baton::agent
