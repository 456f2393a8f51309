#include "admission/descriptors.h"

#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>

namespace baton::admission {
namespace {

// fs.nr_open: the most a process may ever open (its own hard limit may say "unlimited").
rlim_t kernel_maximum() {
  std::ifstream file("/proc/sys/fs/nr_open");
  unsigned long long value = 0;
  if (file >> value && value > 0) return static_cast<rlim_t>(value);
  return 1 << 20;  // the kernel's default
}

}  // namespace

DescriptorLimit raise_descriptor_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return {.soft = 0, .hard = 0, .not_raised = std::string("getrlimit(RLIMIT_NOFILE): ") + std::strerror(errno)};
  }
  const rlim_t target = limit.rlim_max == RLIM_INFINITY ? kernel_maximum() : limit.rlim_max;
  std::optional<error::Refusal> not_raised;
  if (limit.rlim_cur < target) {
    rlimit raised = limit;
    raised.rlim_cur = target;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) {
      limit = raised;
    } else {
      not_raised = "setrlimit(RLIMIT_NOFILE, " + std::to_string(target) + "): " + std::strerror(errno);
    }
  }
  return {.soft = limit.rlim_cur, .hard = limit.rlim_max, .not_raised = std::move(not_raised)};
}

std::uint64_t descriptor_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return 1024;  // the usual default
  return limit.rlim_cur;
}

bool descriptors_exhausted(std::error_code error) {
  // Asio reports system errors in a category of its own ("asio.system") that maps to no
  // std::errc condition: compare the errno values of every system category.
  const std::error_category& category = error.category();
  if (category != std::system_category() && category != std::generic_category() &&
      std::string_view(category.name()) != "asio.system") {
    return false;
  }
  const int code = error.value();
  return code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM;
}

}  // namespace baton::admission
