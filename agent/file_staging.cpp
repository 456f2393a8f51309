#include "agent/file_staging.h"

#include "agent/file_identity.h"
#include "error/error.h"

#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <system_error>
#include <vector>

namespace baton::agent {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw error::SystemError(std::error_code(errno, std::generic_category()), what);
}

// Copies [begin, end) of `from` into `to` at the same offsets: in the kernel when it can
// (copy_file_range; a reflink on filesystems that have them), else through a buffer.
void copy_range(int from, int to, std::uint64_t begin, std::uint64_t end, const std::string& name) {
  auto in = static_cast<off_t>(begin), out = static_cast<off_t>(begin);
  while (static_cast<std::uint64_t>(in) < end) {
    const auto left = static_cast<std::size_t>(end - static_cast<std::uint64_t>(in));
    const ssize_t n = ::copy_file_range(from, &in, to, &out, left, 0);
    if (n > 0) continue;
    if (n == 0) throw error::SystemError(name + " shrank while it was staged");
    if (errno == EINTR) continue;
    if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) fail("copying " + name);
    std::vector<char> buffer(1 << 20);
    while (static_cast<std::uint64_t>(in) < end) {
      const auto want = std::min<std::uint64_t>(buffer.size(), end - static_cast<std::uint64_t>(in));
      const ssize_t got = ::pread(from, buffer.data(), want, in);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) fail("reading " + name);
      if (got == 0) throw error::SystemError(name + " shrank while it was staged");
      for (ssize_t done = 0; done < got;) {
        const ssize_t w = ::pwrite(to, buffer.data() + done, static_cast<std::size_t>(got - done), in + done);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) fail("writing the staging file of " + name);
        done += w;
      }
      in += got;
    }
  }
}

}  // namespace

void FileStaging::prepare(const protocol::StagedFile& staged) {
  if (root_.exists(staged.staging())) return;  // a restarted agent resuming the job
  root_.open_destination(staged.staging());
}

void FileStaging::commit(const protocol::StagedFile& staged, const ByteRanges& written) {
  const Fd to = root_.open_destination(staged.staging());
  if (root_.exists(staged.file())) {
    // The destination's bytes the job did not write stay as they were.
    const std::uint64_t size = root_.file_size(staged.file());
    const Fd from = root_.open_source(staged.file());
    std::uint64_t at = 0;
    for (const auto& [begin, end] : written) {
      if (begin >= size) break;
      if (at < begin) copy_range(from.get(), to.get(), at, begin, staged.file());
      at = std::max(at, end);
    }
    if (at < size) copy_range(from.get(), to.get(), at, size, staged.file());
  }
  if (::fdatasync(to.get()) != 0) fail("syncing " + staged.staging());
  root_.replace(staged.staging(), staged.file());
}

void FileStaging::discard(const protocol::StagedFile& staged) { root_.remove(staged.staging()); }

std::string storage_id(const DataRoot& root) {
  struct stat st {};
  if (::stat(root.path().c_str(), &st) != 0) fail("data root " + root.path().string());
  return "files:" + machine_id() + ":" + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
}

}  // namespace baton::agent
