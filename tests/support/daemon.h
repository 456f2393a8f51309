// A daemon started for an integration test: runs in the background with its stderr in a
// file, and is stopped with SIGTERM (then SIGKILL after a grace period) when it goes.
#pragma once

#include <sys/types.h>
#include <chrono>
#include <string>
#include <vector>

namespace baton::test {

class Daemon {
 public:
  // Starts argv[0] (a path) with argv[1..]; stderr goes to `log_path`.
  Daemon(const std::vector<std::string>& argv, std::string log_path);
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // SIGTERM, then waits up to `grace` for the exit (SIGKILL after). Returns the exit
  // status (128 + signal when killed by one).
  int stop(std::chrono::milliseconds grace = std::chrono::seconds(10));
  // Whether it is still running.
  bool running();
  // Waits up to `timeout` for it to exit by itself, woken by the exit (a pidfd, not a poll
  // loop); whether it has exited.
  bool wait_exit(std::chrono::milliseconds timeout);
  std::string log() const;
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int status_ = -1;
  std::string log_path_;
};

}  // namespace baton::test
