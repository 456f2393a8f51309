// Calls that must not block on a FIFO, run so that a regression fails the test by a
// timeout instead of hanging the suite for ever.
#pragma once

#include <chrono>
#include <exception>
#include <filesystem>
#include <future>
#include <optional>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace baton::agent::test {

// Runs `call` on a thread of its own and waits at most `limit` for it. Returns what it
// threw ("" if it returned), or nullopt if it was still blocked: then `fifo`'s other end
// is opened, which releases an open(2) waiting on it, so the thread can be joined.
template <class Call>
std::optional<std::string> error_within(Call call, const std::filesystem::path& fifo,
                                        std::chrono::milliseconds limit = std::chrono::seconds(5)) {
  auto result = std::async(std::launch::async, [call]() -> std::string {
    try {
      call();
    } catch (const std::exception& e) {
      return e.what();
    }
    return {};
  });
  if (result.wait_for(limit) == std::future_status::ready) return result.get();
  const int other_end = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  result.wait();
  if (other_end >= 0) ::close(other_end);
  return std::nullopt;
}

}  // namespace baton::agent::test
