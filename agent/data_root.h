// The agent's data root: the one directory plans may read and write. Names are checked
// lexically (check_name) and files are opened with openat2(2) RESOLVE_BENEATH, so the
// kernel refuses any path, symlink included, that leads outside the root. Only regular
// files are opened: a FIFO, socket, device or directory is refused without blocking.
#pragma once

#include "error/refusal.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace baton::agent {

// An owned file descriptor, closed on destruction.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd();
  int get() const { return fd_; }
  int release();
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// Names longer than this are refused.
inline constexpr std::size_t max_name_bytes = 4096;

// Nothing when `name` may be used under a data root, otherwise why not: empty, absolute, a
// ".." component, a NUL byte, or longer than max_name_bytes.
std::optional<error::Refusal> check_name(std::string_view name);

// Where a name under a data root leads, symlinks and hard links followed (DataRoot::resolve):
// the device and inode of the deepest existing file or directory on its way, and the
// components of the name past it ("" when the whole name exists).
struct ResolvedName {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::string rest;  // "sub/x.bin": the missing part, "." and empty components dropped
};

class DataRoot {
 public:
  // Throws error::InvalidInput naming `directory` if it is not an existing directory.
  explicit DataRoot(const std::filesystem::path& directory);

  const std::filesystem::path& path() const { return path_; }

  // Read-only. Throws error::InvalidInput for a bad name, error::InvalidInput naming the
  // file and what it is when it is not a regular file ("src/x is a fifo, not a regular
  // file"), error::SystemError naming the file otherwise ("outside the data root" when the
  // kernel says it escapes). Never blocks: a FIFO is refused, not waited on.
  Fd open_source(std::string_view name) const;
  // Write-only, created with mode 0644 if missing, never truncated; missing parent
  // directories inside the root are created. Throws like open_source.
  Fd open_destination(std::string_view name) const;
  // The size of an existing regular file under the root. Throws like open_source.
  std::uint64_t file_size(std::string_view name) const;
  // Whether `name` exists under the root (any kind of file). Throws for a bad name.
  bool exists(std::string_view name) const;
  // Renames `from` over `to`, two names in one directory under the root, and makes the
  // rename durable (fsync of that directory). Throws like open_source.
  void replace(std::string_view from, std::string_view to) const;
  // Removes `name` if it exists. Throws like open_source for anything but a missing file.
  void remove(std::string_view name) const;
  // Makes the directory `name`, and its missing parents, inside the root (one that exists
  // is fine). Throws like open_source.
  void make_directory(std::string_view name) const;
  // Removes the directory `name` with everything in it, if it exists. Follows no symlink:
  // one inside is removed, not what it leads to, and `name` itself must not be one.
  // Throws like open_source.
  void remove_tree(std::string_view name) const;
  // For the plan check: throws like open_source if `name` exists and is not a regular
  // file, or cannot be looked at; a missing file is fine (it will be created). Opens
  // nothing for reading or writing, creates nothing.
  void check_destination(std::string_view name) const;
  // Which file `name` is, however it is spelled ("x", "./x", "d//x", through a symlinked
  // directory or another hard link): two names that resolve alike are one file, for reads
  // and for writes. Opens nothing for reading or writing, creates nothing. Throws like
  // open_source, and error::InvalidInput for a missing name that passes through a dangling
  // symlink (a write would create its target, which the name does not say).
  ResolvedName resolve(std::string_view name) const;

 private:
  Fd open_beneath(int dirfd, const std::string& relative, std::uint64_t flags, std::uint64_t mode,
                  std::string_view name) const;
  // Opens `name` with `flags` | O_NONBLOCK, refuses anything but a regular file, then
  // clears O_NONBLOCK.
  Fd open_regular(std::string_view name, std::uint64_t flags, std::uint64_t mode) const;
  // The size of `fd`; throws naming `name` and its kind unless it is a regular file.
  std::uint64_t require_regular(int fd, std::string_view name) const;
  void make_parents(std::string_view name) const;
  // The directory holding `name`, opened beneath the root (for *at calls and fsync).
  Fd parent_of(std::string_view name) const;

  std::filesystem::path path_;
  Fd dir_;
};

}  // namespace baton::agent
