#include "coordinator/daemon/job_end_wait.h"

#include "coordinator/daemon/request_error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace baton::coordinator {

std::chrono::milliseconds parse_job_wait(std::string_view text) {
  double seconds = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  const double most = std::chrono::duration<double>(kMaxJobWait).count();
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(seconds) ||
      !(seconds > 0) || seconds > most) {
    throw RequestError(RequestFailure::bad_request, "wait: must be seconds in (0, " +
                                                        std::to_string(static_cast<int>(most)) + "], not \"" +
                                                        std::string(text.substr(0, 32)) + "\"");
  }
  // At least a millisecond: "0.0001" waits, it does not answer at once.
  return std::max(std::chrono::milliseconds(1),
                  std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::duration<double>(seconds)));
}

bool parse_job_view(std::string_view text) {
  if (text == "progress") return true;
  throw RequestError(RequestFailure::bad_request, "view: must be \"progress\" (or absent, for the whole job), not \"" +
                                                      std::string(text.substr(0, 32)) + "\"");
}

void JobEndSignal::ended() {
  {
    const std::lock_guard lock(mutex_);
    ++generation_;
  }
  changed_.notify_all();
}

void JobEndSignal::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
}

std::uint64_t JobEndSignal::generation() {
  const std::lock_guard lock(mutex_);
  return generation_;
}

bool JobEndSignal::wait_after(std::uint64_t seen, Clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  changed_.wait_until(lock, deadline, [&] { return generation_ != seen || stopping_; });
  return generation_ != seen && !stopping_;
}

}  // namespace baton::coordinator
