#include "agent/memory_storage.h"

#include "agent/scratch.h"
#include "error/error.h"

namespace baton::agent {

void MemoryStorage::register_region(const std::string& name, std::span<std::byte> bytes) {
  if (name.empty()) throw error::InvalidInput("a memory region needs a name");
  if (is_scratch(name)) throw error::InvalidInput("region name " + name + " would name a scratch object in a plan");
  regions_[name] = bytes;
  ++version_;
}

void MemoryStorage::unregister_region(const std::string& name) {
  regions_.erase(name);
  ++version_;
}

std::span<std::byte> MemoryStorage::region(const std::string& name) const {
  const auto found = regions_.find(name);
  if (found == regions_.end()) throw error::InvalidInput("no memory region named '" + name + "' is registered");
  return found->second;
}

std::unique_ptr<transport::Source> MemoryStorage::source(const std::string& name) {
  return std::make_unique<transport::MemorySource>(region(name));
}

std::unique_ptr<transport::Sink> MemoryStorage::sink(const std::string& name) {
  return std::make_unique<transport::MemorySink>(region(name));
}

ObjectStatus MemoryStorage::status(const std::string& name) {
  const auto found = regions_.find(name);
  if (found == regions_.end()) return {};
  return {.exists = true, .size = found->second.size(), .error = {}, .identity = {}};
}

}  // namespace baton::agent
