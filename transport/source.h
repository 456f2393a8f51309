// Where a sender's bytes come from, and where a receiver's verified bytes go.
//
// Offsets are positions in the object (a file, a registered memory region), the same
// offsets the frames carry. Sources and sinks are synchronous: file I/O on a local disk
// or page cache, memory copies. A source or sink must outlive the flows that use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

namespace baton::transport {

// "a fifo", "a socket", "a directory", ... for the type bits of a stat(2) st_mode: for
// errors that refuse what is not a regular file.
std::string_view file_kind(std::uint32_t st_mode) noexcept;

class Source {
 public:
  virtual ~Source() = default;
  virtual std::uint64_t size() const = 0;
  // The bytes [offset, offset + length) without copying, if they are in memory.
  virtual std::optional<std::span<const std::byte>> view(std::uint64_t offset, std::size_t length) const;
  // Copies the bytes [offset, offset + into.size()) into `into`.
  virtual std::error_code read(std::uint64_t offset, std::span<std::byte> into) const = 0;
};

class Sink {
 public:
  virtual ~Sink() = default;
  // Writes verified bytes at `offset`. An error ends the flow with errc::rejected_by_sink.
  virtual std::error_code write(std::uint64_t offset, std::span<const std::byte> bytes) = 0;
  // Makes what was written durable (a file: fdatasync). Memory needs nothing. May be
  // called from another thread than the writes, never at the same time as one.
  virtual std::error_code sync() { return {}; }
};

// Memory the caller owns (and keeps alive and unchanged during the flows).
class MemorySource final : public Source {
 public:
  explicit MemorySource(std::span<const std::byte> bytes) : bytes_(bytes) {}
  std::uint64_t size() const override { return bytes_.size(); }
  std::optional<std::span<const std::byte>> view(std::uint64_t offset, std::size_t length) const override;
  std::error_code read(std::uint64_t offset, std::span<std::byte> into) const override;

 private:
  std::span<const std::byte> bytes_;
};

// A regular file opened read-only; chunks are read with pread into a pool buffer.
class FileSource final : public Source {
 public:
  // Throws error::SystemError naming the path if it cannot be opened or is not a regular
  // file (a FIFO is refused, never waited on).
  explicit FileSource(const std::string& path);
  // Adopts `fd`, a descriptor open for reading (the agent opens files inside its data
  // root itself); `name` is for error messages. Throws error::SystemError (and closes
  // `fd`) if fstat fails or it is not a regular file.
  FileSource(int fd, const std::string& name);
  ~FileSource() override;
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;
  std::uint64_t size() const override { return size_; }
  std::error_code read(std::uint64_t offset, std::span<std::byte> into) const override;

 private:
  void take_size(const std::string& name);

  int fd_ = -1;
  std::uint64_t size_ = 0;
};

// Memory the caller owns; writes outside it are refused.
class MemorySink final : public Sink {
 public:
  explicit MemorySink(std::span<std::byte> bytes) : bytes_(bytes) {}
  std::error_code write(std::uint64_t offset, std::span<const std::byte> bytes) override;

 private:
  std::span<std::byte> bytes_;
};

// A regular file opened for writing in place (created if missing, never truncated).
class FileSink final : public Sink {
 public:
  // Throws error::SystemError naming the path if it cannot be opened or is not a regular
  // file (a FIFO is refused, never waited on).
  explicit FileSink(const std::string& path);
  // Adopts `fd`, a descriptor open for writing.
  explicit FileSink(int fd) noexcept : fd_(fd) {}
  ~FileSink() override;
  FileSink(const FileSink&) = delete;
  FileSink& operator=(const FileSink&) = delete;
  std::error_code write(std::uint64_t offset, std::span<const std::byte> bytes) override;
  // fdatasync(2): the data and the size, not the timestamps.
  std::error_code sync() override;

 private:
  int fd_ = -1;
};

// Verifies and drops (benchmarks, calibration).
class DiscardSink final : public Sink {
 public:
  std::error_code write(std::uint64_t, std::span<const std::byte>) override { return {}; }
};

}  // namespace baton::transport
