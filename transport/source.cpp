#include "transport/source.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error/error.h"
#include "transport/errors.h"

namespace baton::transport {
namespace {

bool inside(std::uint64_t offset, std::size_t length, std::uint64_t size) noexcept {
  return offset <= size && length <= size - offset;
}

std::error_code last_error() noexcept { return {errno, std::system_category()}; }

// Opens `path` without blocking (a FIFO would otherwise wait for its other end for ever),
// refuses anything but a regular file, then clears O_NONBLOCK. Throws naming `path`.
int open_regular(const std::string& path, int flags, const std::string& purpose) {
  const int fd = ::open(path.c_str(), flags | O_NONBLOCK | O_CLOEXEC, 0644);
  struct stat info {};
  if (fd < 0) {
    const auto error = last_error();
    // A FIFO without a reader or a socket fails with ENXIO: say what is there instead.
    if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode))
      throw error::SystemError(error,
                               "cannot open " + path + purpose + ": it is " + std::string(file_kind(info.st_mode)));
    throw error::SystemError(error, "cannot open " + path + purpose);
  }
  std::string why;
  std::error_code error;
  if (::fstat(fd, &info) != 0) {
    error = last_error();
  } else if (!S_ISREG(info.st_mode)) {
    error = std::make_error_code(std::errc::invalid_argument);
    why = ": it is " + std::string(file_kind(info.st_mode)) + ", not a regular file";
  } else if (const int status = ::fcntl(fd, F_GETFL); status < 0 || ::fcntl(fd, F_SETFL, status & ~O_NONBLOCK) != 0) {
    error = last_error();
  }
  if (error) {
    ::close(fd);
    throw error::SystemError(error, "cannot open " + path + purpose + why);
  }
  return fd;
}

}  // namespace

std::string_view file_kind(std::uint32_t st_mode) noexcept {
  switch (st_mode & S_IFMT) {
    case S_IFREG: return "a regular file";
    case S_IFIFO: return "a fifo";
    case S_IFSOCK: return "a socket";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFDIR: return "a directory";
    case S_IFLNK: return "a symbolic link";
    default: return "a special file";
  }
}

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

FileSource::FileSource(const std::string& path) : fd_(open_regular(path, O_RDONLY, " for reading")) { take_size(path); }

FileSource::FileSource(int fd, const std::string& name) : fd_(fd) { take_size(name); }

void FileSource::take_size(const std::string& name) {
  struct stat info {};
  if (::fstat(fd_, &info) != 0) {
    const auto error = last_error();
    ::close(fd_);
    throw error::SystemError(error, "cannot stat " + name);
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd_);
    throw error::SystemError(std::make_error_code(std::errc::invalid_argument),
                             name + " is " + std::string(file_kind(info.st_mode)) + ", not a regular file");
  }
  size_ = static_cast<std::uint64_t>(info.st_size);
}

FileSource::~FileSource() { ::close(fd_); }

std::error_code FileSource::read(std::uint64_t offset, std::span<std::byte> into) const {
  if (!inside(offset, into.size(), size_)) return errc::source_too_short;
  std::size_t done = 0;
  while (done < into.size()) {
    const auto n = ::pread(fd_, into.data() + done, into.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return last_error();
    if (n == 0) return errc::source_too_short;  // it shrank while we read it
    done += static_cast<std::size_t>(n);
  }
  return {};
}

std::error_code MemorySink::write(std::uint64_t offset, std::span<const std::byte> bytes) {
  if (!inside(offset, bytes.size(), bytes_.size())) return errc::rejected_by_sink;
  if (!bytes.empty()) std::memcpy(bytes_.data() + offset, bytes.data(), bytes.size());
  return {};
}

FileSink::FileSink(const std::string& path) : fd_(open_regular(path, O_WRONLY | O_CREAT, " for writing")) {}

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

std::error_code FileSink::sync() {
  int result;
  do result = ::fdatasync(fd_);
  while (result != 0 && errno == EINTR);
  return result == 0 ? std::error_code{} : last_error();
}

}  // namespace baton::transport
