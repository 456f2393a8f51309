#include "agent/memory_scratch.h"

#include "error/error.h"

#include <new>
#include <span>
#include <stdexcept>

namespace baton::agent {
namespace {

// One object's memory, shared by the job's storage and every source or sink open on it.
struct Block {
  explicit Block(std::uint64_t bytes_needed)
      : bytes(std::make_unique_for_overwrite<std::byte[]>(bytes_needed)), size(bytes_needed) {}
  std::span<std::byte> span() const { return {bytes.get(), static_cast<std::size_t>(size)}; }
  std::unique_ptr<std::byte[]> bytes;  // never read before written: the plan check sees to it
  std::uint64_t size;
};

class BlockSource final : public transport::Source {
 public:
  explicit BlockSource(std::shared_ptr<Block> block) : block_(std::move(block)), inner_(block_->span()) {}
  std::uint64_t size() const override { return inner_.size(); }
  std::optional<std::span<const std::byte>> view(std::uint64_t offset, std::size_t length) const override {
    return inner_.view(offset, length);
  }
  std::error_code read(std::uint64_t offset, std::span<std::byte> into) const override {
    return inner_.read(offset, into);
  }

 private:
  std::shared_ptr<Block> block_;
  transport::MemorySource inner_;
};

class BlockSink final : public transport::Sink {
 public:
  explicit BlockSink(std::shared_ptr<Block> block) : block_(std::move(block)), inner_(block_->span()) {}
  std::error_code write(std::uint64_t offset, std::span<const std::byte> bytes) override {
    return inner_.write(offset, bytes);
  }

 private:
  std::shared_ptr<Block> block_;
  transport::MemorySink inner_;
};

class JobMemory final : public Storage {
 public:
  explicit JobMemory(const std::map<std::string, std::uint64_t>& sizes) {
    for (const auto& [name, size] : sizes) {
      try {
        blocks_.emplace(name, std::make_shared<Block>(size));
      } catch (const std::bad_alloc&) {
        throw error::SystemError("cannot allocate " + std::to_string(size) + " bytes for " + name);
      }
    }
  }
  std::unique_ptr<transport::Source> source(const std::string& name) override {
    return std::make_unique<BlockSource>(block(name));
  }
  std::unique_ptr<transport::Sink> sink(const std::string& name) override {
    return std::make_unique<BlockSink>(block(name));
  }
  ObjectStatus status(const std::string& name) override {
    const auto found = blocks_.find(name);
    if (found == blocks_.end()) return {.exists = false, .size = 0, .error = {}, .identity = {}};
    return {.exists = true, .size = found->second->size, .error = {}, .identity = {}};
  }

 private:
  std::shared_ptr<Block> block(const std::string& name) const {
    const auto found = blocks_.find(name);
    if (found == blocks_.end()) throw error::InvalidInput("the plan writes nothing into " + name);
    return found->second;
  }
  std::map<std::string, std::shared_ptr<Block>> blocks_;
};

}  // namespace

std::unique_ptr<Storage> MemoryScratch::open(std::uint64_t, const std::map<std::string, std::uint64_t>& sizes) {
  return std::make_unique<JobMemory>(sizes);
}

}  // namespace baton::agent
