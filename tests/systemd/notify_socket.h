// A stand-in for systemd's side of sd_notify(3) in tests: a real AF_UNIX datagram socket
// at a temporary path, whose messages are read back as the service manager would.
#pragma once

#include "tests/support/temp_dir.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace baton::test {

class NotifySocket {
 public:
  NotifySocket();  // binds a fresh socket; throws std::runtime_error when it cannot
  ~NotifySocket();
  NotifySocket(const NotifySocket&) = delete;
  NotifySocket& operator=(const NotifySocket&) = delete;

  // The value for NOTIFY_SOCKET.
  const std::string& path() const { return path_; }
  // The next datagram, or nothing after `timeout`.
  std::optional<std::string> receive(std::chrono::milliseconds timeout);
  // Reads datagrams until one has the line `line` (e.g. "READY=1"); returns every one read,
  // the matching one last, or nothing after `timeout`.
  std::optional<std::vector<std::string>> until(const std::string& line, std::chrono::milliseconds timeout);

 private:
  TempDir dir_{"baton-notify"};
  int fd_ = -1;
  std::string path_;
};

// Whether `message` (newline-separated assignments) has the line `line`.
bool has_line(const std::string& message, const std::string& line);

}  // namespace baton::test
