#include "tests/support/exhausted_descriptors.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace baton::test {
namespace {

// The highest descriptor open in this process.
int highest_open_descriptor() {
  int highest = 2;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    highest = std::max(highest, std::stoi(entry.path().filename().string()));
  }
  return highest;
}

}  // namespace

ExhaustedDescriptors::ExhaustedDescriptors(std::size_t spare) {
  // UBSan checks a call on an object of a shared library (the error categories of
  // libstdc++, which every socket error compares) by reading the process's mappings, once
  // per type: with no descriptor left it cannot, and reports a false "invalid vptr". Make
  // those checks now, while descriptors remain; later ones hit UBSan's cache.
  const std::error_code system(EAGAIN, std::system_category()), generic(EAGAIN, std::generic_category());
  volatile bool same = system == generic || generic == system;
  (void)same;
  if (::getrlimit(RLIMIT_NOFILE, &saved_) != 0) throw std::runtime_error("getrlimit(RLIMIT_NOFILE) failed");
  rlimit low = saved_;
  low.rlim_cur = static_cast<rlim_t>(highest_open_descriptor() + 1 + 16 + static_cast<int>(spare));
  if (low.rlim_cur > saved_.rlim_cur) throw std::runtime_error("the open-file limit is already too low to lower");
  if (::setrlimit(RLIMIT_NOFILE, &low) != 0) throw std::runtime_error("setrlimit(RLIMIT_NOFILE) failed");
  lowered_ = true;
  // Bounded: at most the limit's worth of descriptors.
  for (rlim_t i = 0; i < low.rlim_cur; ++i) {
    const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd < 0) break;
    fillers_.push_back(fd);
  }
  for (std::size_t i = 0; i < spare && !fillers_.empty(); ++i) {
    ::close(fillers_.back());
    fillers_.pop_back();
  }
}

void ExhaustedDescriptors::release() {
  for (const int fd : fillers_) ::close(fd);
  fillers_.clear();
  if (lowered_) ::setrlimit(RLIMIT_NOFILE, &saved_);
  lowered_ = false;
}

}  // namespace baton::test
