#include "agent/data_root.h"

#include "error/error.h"
#include "transport/source.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <system_error>
#include <vector>

namespace baton::agent {

Fd& Fd::operator=(Fd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

int Fd::release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

std::optional<error::Refusal> check_name(std::string_view name) {
  if (name.empty()) return "empty file name";
  if (name.size() > max_name_bytes) return "file name longer than " + std::to_string(max_name_bytes) + " bytes";
  if (name.find('\0') != std::string_view::npos) return "file name contains a NUL byte";
  if (name.front() == '/') return "absolute file name " + std::string(name);
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t end = std::min(name.find('/', start), name.size());
    if (name.substr(start, end - start) == "..") return "file name " + std::string(name) + " contains '..'";
    start = end + 1;
  }
  return {};
}

namespace {

[[noreturn]] void throw_open_error(int error, std::string_view name, const std::filesystem::path& root) {
  std::string what = std::string(name);
  if (error == EXDEV) what += ": outside the data root " + root.string();
  else if (error == ENOSYS) what += ": openat2(2) is not available (Linux 5.6 or later is needed)";
  else what += " (under " + root.string() + ")";
  throw error::SystemError(std::error_code(error, std::generic_category()), what);
}

void require_name(std::string_view name) {
  if (const std::optional<error::Refusal> refused = check_name(name)) throw error::InvalidInput(refused->reason);
}

}  // namespace

DataRoot::DataRoot(const std::filesystem::path& directory) : path_(directory) {
  std::error_code ec;
  if (!std::filesystem::is_directory(directory, ec))
    throw error::InvalidInput("data root " + directory.string() + " is not an existing directory");
  dir_ = Fd(::open(directory.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!dir_)
    throw error::SystemError(std::error_code(errno, std::generic_category()), "data root " + directory.string());
}

Fd DataRoot::open_beneath(int dirfd, const std::string& relative, std::uint64_t flags, std::uint64_t mode,
                          std::string_view name) const {
  open_how how{};
  how.flags = flags | O_CLOEXEC;
  how.mode = mode;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  long fd;
  do fd = ::syscall(SYS_openat2, dirfd, relative.c_str(), &how, sizeof how);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) throw_open_error(errno, name, path_);
  return Fd(static_cast<int>(fd));
}

std::uint64_t DataRoot::require_regular(int fd, std::string_view name) const {
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw_open_error(errno, name, path_);
  if (!S_ISREG(st.st_mode))
    throw error::InvalidInput(std::string(name) + " is " + std::string(transport::file_kind(st.st_mode)) +
                              ", not a regular file (under " + path_.string() + ")");
  return static_cast<std::uint64_t>(st.st_size);
}

// O_NONBLOCK: opening a FIFO would otherwise wait for its other end for ever (the agent
// dead to its coordinator). The file is checked on the descriptor actually opened, so a
// rename between a check and the open cannot slip a FIFO in.
Fd DataRoot::open_regular(std::string_view name, std::uint64_t flags, std::uint64_t mode) const {
  Fd fd;
  try {
    fd = open_beneath(dir_.get(), std::string(name), flags | O_NONBLOCK, mode, name);
  } catch (const error::SystemError& e) {
    // A FIFO without a reader or a socket (ENXIO), a directory opened for writing
    // (EISDIR): the open itself fails, so look at what is there to say what it is.
    const int error = e.code().value();
    if (error != ENXIO && error != EISDIR && error != EWOULDBLOCK && error != ENODEV) throw;
    const Fd probe = open_beneath(dir_.get(), std::string(name), O_PATH, 0, name);
    require_regular(probe.get(), name);
    throw;
  }
  require_regular(fd.get(), name);
  // A regular file ignores O_NONBLOCK today; clear it so no I/O path ever sees EAGAIN.
  const int status = ::fcntl(fd.get(), F_GETFL);
  if (status < 0 || ::fcntl(fd.get(), F_SETFL, status & ~O_NONBLOCK) != 0) throw_open_error(errno, name, path_);
  return fd;
}

Fd DataRoot::open_source(std::string_view name) const {
  require_name(name);
  return open_regular(name, O_RDONLY, 0);
}

// Creates each missing parent in turn, inside its parent opened beneath the root, so a
// symlinked directory cannot lead mkdirat outside the root.
void DataRoot::make_parents(std::string_view name) const {
  std::size_t slash = name.find('/');
  std::size_t start = 0;
  while (slash != std::string_view::npos) {
    const std::string part(name.substr(start, slash - start));
    if (!part.empty() && part != ".") {
      const std::string parent = start == 0 ? std::string(".") : std::string(name.substr(0, start));
      const Fd dir = open_beneath(dir_.get(), parent, O_PATH | O_DIRECTORY, 0, name);
      if (::mkdirat(dir.get(), part.c_str(), 0755) != 0 && errno != EEXIST) throw_open_error(errno, name, path_);
    }
    start = slash + 1;
    slash = name.find('/', start);
  }
}

Fd DataRoot::open_destination(std::string_view name) const {
  require_name(name);
  make_parents(name);
  return open_regular(name, O_WRONLY | O_CREAT, 0644);
}

std::uint64_t DataRoot::file_size(std::string_view name) const {
  require_name(name);
  // O_PATH: no read access needed, and a FIFO cannot block the check.
  const Fd fd = open_beneath(dir_.get(), std::string(name), O_PATH, 0, name);
  return require_regular(fd.get(), name);
}

void DataRoot::check_destination(std::string_view name) const {
  require_name(name);
  Fd fd;
  try {
    fd = open_beneath(dir_.get(), std::string(name), O_PATH, 0, name);
  } catch (const error::SystemError& e) {
    if (e.code() == std::errc::no_such_file_or_directory) return;  // created when the step runs
    throw;
  }
  require_regular(fd.get(), name);
}

namespace {

// The components of `name`, "." and empty ones dropped.
std::vector<std::string> components(std::string_view name) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t end = std::min(name.find('/', start), name.size());
    const std::string_view part = name.substr(start, end - start);
    if (!part.empty() && part != ".") parts.emplace_back(part);
    start = end + 1;
  }
  return parts;
}

std::string joined(const std::vector<std::string>& parts, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) out += (out.empty() ? "" : "/") + parts[i];
  return out;
}

}  // namespace

// The longest prefix of the name that exists is opened (O_PATH, beneath the root, every
// symlink on the way followed), so its device and inode say which file it is; the missing
// rest is kept by name, as a write would create it there.
ResolvedName DataRoot::resolve(std::string_view name) const {
  require_name(name);
  const std::vector<std::string> parts = components(name);
  std::size_t existing = parts.size();
  Fd fd;
  while (!fd) {
    const std::string prefix = existing == 0 ? std::string(".") : joined(parts, 0, existing);
    try {
      fd = open_beneath(dir_.get(), prefix, O_PATH, 0, name);
    } catch (const error::SystemError& e) {
      if (e.code() != std::errc::no_such_file_or_directory || existing == 0) throw;
      --existing;
    }
  }
  if (existing < parts.size()) {
    struct stat link {};
    if (::fstatat(fd.get(), parts[existing].c_str(), &link, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(link.st_mode)) {
      throw error::InvalidInput(std::string(name) + ": " + joined(parts, 0, existing + 1) +
                                " is a symlink to a missing file (under " + path_.string() + ")");
    }
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw_open_error(errno, name, path_);
  return {.device = static_cast<std::uint64_t>(st.st_dev),
          .inode = static_cast<std::uint64_t>(st.st_ino),
          .rest = joined(parts, existing, parts.size())};
}

bool DataRoot::exists(std::string_view name) const {
  require_name(name);
  open_how how{};
  how.flags = O_PATH | O_CLOEXEC;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  long fd;
  do fd = ::syscall(SYS_openat2, dir_.get(), std::string(name).c_str(), &how, sizeof how);
  while (fd < 0 && errno == EINTR);
  if (fd < 0 && errno == ENOENT) return false;
  if (fd < 0) throw_open_error(errno, name, path_);
  ::close(static_cast<int>(fd));
  return true;
}

Fd DataRoot::parent_of(std::string_view name) const {
  const auto slash = name.rfind('/');
  const std::string parent = slash == std::string_view::npos ? std::string(".") : std::string(name.substr(0, slash));
  return open_beneath(dir_.get(), parent, O_RDONLY | O_DIRECTORY, 0, name);
}

namespace {

std::string_view base_name(std::string_view name) {
  const auto slash = name.rfind('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}

std::string_view directory_of(std::string_view name) {
  const auto slash = name.rfind('/');
  return slash == std::string_view::npos ? std::string_view{} : name.substr(0, slash);
}

}  // namespace

void DataRoot::replace(std::string_view from, std::string_view to) const {
  require_name(from);
  require_name(to);
  if (directory_of(from) != directory_of(to)) {
    throw error::InvalidInput(std::string(from) + " and " + std::string(to) + " are not in one directory");
  }
  const Fd dir = parent_of(to);
  if (::renameat(dir.get(), std::string(base_name(from)).c_str(), dir.get(), std::string(base_name(to)).c_str()) != 0) {
    throw_open_error(errno, from, path_);
  }
  if (::fsync(dir.get()) != 0) throw_open_error(errno, to, path_);
}

void DataRoot::make_directory(std::string_view name) const {
  require_name(name);
  make_parents(std::string(name) + "/");
}

namespace {

// Empties the directory open at `dir`, depth first. Entries are unlinked, never followed:
// a subdirectory is opened with O_NOFOLLOW, relative to its parent's descriptor.
void empty_directory(int dir, std::string_view name, const std::filesystem::path& root, int depth) {
  if (depth > 16) throw error::InvalidInput(std::string(name) + ": directories nested too deep to remove");
  std::vector<std::string> entries;
  DIR* listing = ::fdopendir(::dup(dir));
  if (listing == nullptr) throw_open_error(errno, name, root);
  while (const dirent* entry = ::readdir(listing)) {
    const std::string_view entry_name = entry->d_name;
    if (entry_name != "." && entry_name != "..") entries.emplace_back(entry_name);
  }
  ::closedir(listing);
  for (const std::string& entry : entries) {
    if (::unlinkat(dir, entry.c_str(), 0) == 0 || errno == ENOENT) continue;
    if (errno != EISDIR) throw_open_error(errno, name, root);
    const Fd sub(::openat(dir, entry.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!sub) throw_open_error(errno, name, root);
    empty_directory(sub.get(), name, root, depth + 1);
    if (::unlinkat(dir, entry.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) throw_open_error(errno, name, root);
  }
}

}  // namespace

void DataRoot::remove_tree(std::string_view name) const {
  require_name(name);
  Fd dir;
  try {
    dir = open_beneath(dir_.get(), std::string(name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0, name);
  } catch (const error::SystemError& e) {
    if (e.code() == std::errc::no_such_file_or_directory) return;
    throw;
  }
  empty_directory(dir.get(), name, path_, 0);
  const Fd parent = parent_of(name);
  if (::unlinkat(parent.get(), std::string(base_name(name)).c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) {
    throw_open_error(errno, name, path_);
  }
}

void DataRoot::remove(std::string_view name) const {
  require_name(name);
  const Fd dir = parent_of(name);
  if (::unlinkat(dir.get(), std::string(base_name(name)).c_str(), 0) != 0 && errno != ENOENT) {
    throw_open_error(errno, name, path_);
  }
}

}  // namespace baton::agent
