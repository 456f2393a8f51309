#include "coordinator/batonctl/coordinator_url.h"

#include "coordinator/json/input.h"
#include "error/refusal.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>
#include <optional>

namespace baton::batonctl {

namespace {

constexpr int kConnectTimeoutMs = 5000;

[[noreturn]] void bad(const std::string& url, const std::string& what) {
  throw json::InputError("--coordinator '" + url + "': " + what + " (expected http://HOST:PORT)");
}

// One connect attempt to `address`: nothing if it connects, else why not.
std::optional<error::Refusal> try_connect(const addrinfo& address) {
  const int fd = ::socket(address.ai_family, address.ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, address.ai_protocol);
  if (fd < 0) return std::strerror(errno);
  std::optional<error::Refusal> why;
  if (::connect(fd, address.ai_addr, address.ai_addrlen) != 0) {
    if (errno != EINPROGRESS) {
      why = std::strerror(errno);
    } else {
      pollfd p{fd, POLLOUT, 0};
      const int ready = ::poll(&p, 1, kConnectTimeoutMs);
      int error = 0;
      socklen_t length = sizeof error;
      if (ready == 0) why = "connection timed out after " + std::to_string(kConnectTimeoutMs / 1000) + " s";
      else if (ready < 0) why = std::strerror(errno);
      else if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error != 0) why = std::strerror(error);
    }
  }
  ::close(fd);
  return why;
}

}  // namespace

CoordinatorUrl parse_coordinator_url(const std::string& url) {
  CoordinatorUrl parsed;
  parsed.text = url;
  while (!parsed.text.empty() && parsed.text.back() == '/') parsed.text.pop_back();
  std::string rest = parsed.text;
  if (rest.empty()) bad(url, "empty");
  if (const auto scheme = rest.find("://"); scheme != std::string::npos) {
    if (rest.substr(0, scheme) != "http") bad(url, "the scheme must be http");
    rest = rest.substr(scheme + 3);
  }
  std::string port;
  if (rest.starts_with('[')) {  // [IPv6]:port
    const auto close = rest.find(']');
    if (close == std::string::npos) bad(url, "'[' without ']'");
    parsed.host = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') bad(url, "unexpected text after ']'");
    if (!rest.empty()) port = rest.substr(1);
  } else {
    const auto colon = rest.find(':');
    parsed.host = rest.substr(0, colon);
    if (colon != std::string::npos) port = rest.substr(colon + 1);
  }
  if (parsed.host.empty()) bad(url, "no host");
  if (parsed.host.find_first_of("/?#@ ") != std::string::npos || port.find_first_of("/?#") != std::string::npos) {
    bad(url, "only a host and a port, no path");
  }
  if (!port.empty() || parsed.text.ends_with(':')) {
    unsigned value = 0;
    const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (error != std::errc{} || end != port.data() + port.size() || value < 1 || value > 65535) {
      bad(url, "the port must be a number from 1 to 65535");
    }
    parsed.port = static_cast<std::uint16_t>(value);
  }
  return parsed;
}

std::string connection_failure(const CoordinatorUrl& url) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(url.port);
  if (const int error = ::getaddrinfo(url.host.c_str(), port.c_str(), &hints, &found); error != 0) {
    return "cannot resolve '" + url.host + "': " + ::gai_strerror(error);
  }
  const std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> addresses(found, ::freeaddrinfo);
  std::string why;
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    const std::optional<error::Refusal> refused = try_connect(*a);
    if (!refused) return "the connection failed, but connects now: try again";
    why = refused->reason;
  }
  return why;
}

}  // namespace baton::batonctl
