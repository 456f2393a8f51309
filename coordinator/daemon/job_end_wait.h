// Waiting for a job's end over the API without polling (docs/runtime.md, "Waiting for a
// job"): `GET /v1/jobs/{id}?wait=SECONDS` holds the request until the job has ended or the
// seconds have passed, then answers the job as a plain GET does (or its progress alone,
// with `view=progress`). The driver says when any
// job ends (ended(), on its thread); a waiting HTTP thread looks again at its job then.
//
// Threading: ended() and stop() from any thread; wait_after() on the API's threads.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string_view>

namespace baton::coordinator {

// The longest a request may wait: well inside the HTTP server's limits (http/server.h), and
// short enough that a stopping coordinator is not held long by a waiter.
inline constexpr std::chrono::milliseconds kMaxJobWait{5'000};

// `text`, the query's seconds, as a duration: a decimal number in (0, kMaxJobWait].
// RequestError(bad_request) naming it otherwise ("wait: must be seconds in (0, 5], not \"x\"").
std::chrono::milliseconds parse_job_wait(std::string_view text);

// `text`, the query's view: true for "progress" (the job without its plan's report).
// RequestError(bad_request) naming it otherwise.
bool parse_job_view(std::string_view text);

class JobEndSignal {
 public:
  using Clock = std::chrono::steady_clock;

  // Some job ended (or the API stops): every waiter looks again.
  void ended();
  void stop();
  // How many ends were signalled so far: read before looking at the job, then passed to
  // wait_after(), so that an end between the look and the wait is not missed.
  std::uint64_t generation();
  // Until an end after `seen` was signalled (true), or `deadline` passed or the API stops
  // (false).
  bool wait_after(std::uint64_t seen, Clock::time_point deadline);

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::uint64_t generation_ = 0;
  bool stopping_ = false;
};

}  // namespace baton::coordinator
