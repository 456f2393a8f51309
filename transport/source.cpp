#include "transport/source.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "transport/errors.h"

namespace baton::transport {
namespace {

bool inside(std::uint64_t offset, std::size_t length, std::uint64_t size) noexcept {
  return offset <= size && length <= size - offset;
}

std::error_code last_error() noexcept { return {errno, std::system_category()}; }

}  // namespace

std::optional<std::span<const std::byte>> Source::view(std::uint64_t, std::size_t) const { return std::nullopt; }

std::optional<std::span<const std::byte>> MemorySource::view(std::uint64_t offset, std::size_t length) const {
  if (!inside(offset, length, bytes_.size())) return std::nullopt;
  return bytes_.subspan(offset, length);
}

std::error_code MemorySource::read(std::uint64_t offset, std::span<std::byte> into) const {
  if (!inside(offset, into.size(), bytes_.size())) return std::make_error_code(std::errc::invalid_argument);
  if (!into.empty()) std::memcpy(into.data(), bytes_.data() + offset, into.size());
  return {};
}

FileSource::FileSource(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
  if (fd_ < 0) throw std::system_error(last_error(), "cannot open " + path + " for reading");
  take_size(path);
}

FileSource::FileSource(int fd, const std::string& name) : fd_(fd) { take_size(name); }

void FileSource::take_size(const std::string& name) {
  struct stat info {};
  if (::fstat(fd_, &info) != 0) {
    const auto error = last_error();
    ::close(fd_);
    throw std::system_error(error, "cannot stat " + name);
  }
  size_ = static_cast<std::uint64_t>(info.st_size);
}

FileSource::~FileSource() { ::close(fd_); }

std::error_code FileSource::read(std::uint64_t offset, std::span<std::byte> into) const {
  if (!inside(offset, into.size(), size_)) return std::make_error_code(std::errc::invalid_argument);
  std::size_t done = 0;
  while (done < into.size()) {
    const auto n = ::pread(fd_, into.data() + done, into.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return last_error();
    if (n == 0) return std::make_error_code(std::errc::io_error);  // file shrank under us
    done += static_cast<std::size_t>(n);
  }
  return {};
}

std::error_code MemorySink::write(std::uint64_t offset, std::span<const std::byte> bytes) {
  if (!inside(offset, bytes.size(), bytes_.size())) return errc::rejected_by_sink;
  if (!bytes.empty()) std::memcpy(bytes_.data() + offset, bytes.data(), bytes.size());
  return {};
}

FileSink::FileSink(const std::string& path) : fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) {
  if (fd_ < 0) throw std::system_error(last_error(), "cannot open " + path + " for writing");
}

FileSink::~FileSink() { ::close(fd_); }

std::error_code FileSink::write(std::uint64_t offset, std::span<const std::byte> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return last_error();
    done += static_cast<std::size_t>(n);
  }
  return {};
}

}  // namespace baton::transport
