#include "tests/systemd/notify_socket.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <sstream>
#include <stdexcept>

namespace baton::test {

NotifySocket::NotifySocket() {
  path_ = (dir_.path / "notify").string();
  fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::runtime_error("socket(AF_UNIX, SOCK_DGRAM) failed");
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path_.c_str(), sizeof address.sun_path - 1);
  if (::bind(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    throw std::runtime_error("cannot bind " + path_ + ": " + std::strerror(errno));
  }
}

NotifySocket::~NotifySocket() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<std::string> NotifySocket::receive(std::chrono::milliseconds timeout) {
  pollfd wait{.fd = fd_, .events = POLLIN, .revents = 0};
  if (::poll(&wait, 1, static_cast<int>(timeout.count())) <= 0) return std::nullopt;
  char buffer[4096];
  const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
  if (n < 0) return std::nullopt;
  return std::string(buffer, static_cast<std::size_t>(n));
}

std::optional<std::vector<std::string>> NotifySocket::until(const std::string& line,
                                                            std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<std::string> seen;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    const auto message = receive(left);
    if (!message) return std::nullopt;
    seen.push_back(*message);
    if (has_line(*message, line)) return seen;
  }
}

bool has_line(const std::string& message, const std::string& line) {
  std::istringstream lines(message);
  for (std::string l; std::getline(lines, l);) {
    if (l == line) return true;
  }
  return false;
}

}  // namespace baton::test
