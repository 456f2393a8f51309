#include "http/server_thread.h"

#include "error/error.h"

#include <httplib.h>

#include <sys/socket.h>

#include <charconv>
#include <chrono>

namespace baton::http {

ServerThread::~ServerThread() { stop(); }

void ServerThread::start(const std::string& address, std::string_view what) {
  const std::string named = std::string(what) + " address '" + address + "'";
  const auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0) throw error::InvalidInput(named + " is not host:port");
  std::string host = address.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string port_text = address.substr(colon + 1);
  int port = -1;
  const auto [end, error] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (error != std::errc{} || end != port_text.data() + port_text.size() || port < 0 || port > 65535) {
    throw error::InvalidInput(named + " has no port number in [0, 65535]");
  }
  // SO_REUSEADDR only: cpp-httplib's default SO_REUSEPORT would let a second daemon bind
  // the same port and take half the requests.
  server_.set_socket_options([](socket_t socket) {
    const int yes = 1;
    ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  if (port == 0) port = server_.bind_to_any_port(host);
  else if (!server_.bind_to_port(host, port)) port = -1;
  if (port <= 0) throw error::SystemError("cannot serve the " + named + " (in use, or not this host's?)");
  address_ = address.substr(0, colon) + ":" + std::to_string(port);
  thread_ = std::thread([this] {
    server_.listen_after_bind();
    listened_ = true;
  });
}

void ServerThread::stop() {
  if (!thread_.joinable()) return;
  // The server counts as running only once its thread is in the accept loop; a stop()
  // before that would be lost and the join would wait forever.
  while (!server_.is_running() && !listened_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  server_.stop();
  thread_.join();
}

}  // namespace baton::http
