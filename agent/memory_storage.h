// Storage over memory an application registered under names: the embedded agent's way
// to send from and receive into its own arrays without files (docs/embedding.md).
// Writes outside a region are refused; a name nobody registered is an error naming it.
#pragma once

#include "agent/storage.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>

namespace baton::agent {

class MemoryStorage final : public Storage {
 public:
  // Registers (or replaces) the region `name`. The memory must stay valid, and must not be
  // touched by the application while a job that names it runs. Throws
  // error::InvalidInput for an empty name or one a plan would take for a scratch
  // object's ("scratch:...").
  void register_region(const std::string& name, std::span<std::byte> bytes);
  void unregister_region(const std::string& name);
  // The size of a registered region; throws error::InvalidInput naming an unknown one.
  std::uint64_t region_size(const std::string& name) const { return region(name).size(); }

  std::unique_ptr<transport::Source> source(const std::string& name) override;
  std::unique_ptr<transport::Sink> sink(const std::string& name) override;
  ObjectStatus status(const std::string& name) override;
  // Counts the registrations and removals of regions.
  std::optional<std::uint64_t> version() const override { return version_; }

 private:
  std::span<std::byte> region(const std::string& name) const;

  std::map<std::string, std::span<std::byte>, std::less<>> regions_;
  std::uint64_t version_ = 0;
};

}  // namespace baton::agent
