// A cpp-httplib server bound to "host:port" and serving on a thread of its own: the one
// way both daemons serve HTTP (the coordinator's API and status page, the agent's
// metrics endpoint).
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

namespace httplib {
class Server;
}

namespace baton::http {

class ServerThread {
 public:
  // `server` (its routes already set) must outlive this.
  explicit ServerThread(httplib::Server& server) : server_(server) {}
  ~ServerThread();  // stops serving
  ServerThread(const ServerThread&) = delete;
  ServerThread& operator=(const ServerThread&) = delete;

  // Binds "host:port" (port 0: any free port; an IPv6 host in brackets) with SO_REUSEADDR
  // only, and serves. Throws an error::Error naming `what` and the address when the
  // address is malformed or cannot be bound.
  void start(const std::string& address, std::string_view what);
  // Safe at any time, also right after start() and more than once.
  void stop();
  // The bound "host:port" (the real port when started with 0).
  const std::string& address() const { return address_; }

 private:
  httplib::Server& server_;
  std::thread thread_;
  std::atomic<bool> listened_ = false;  // the thread has left its accept loop
  std::string address_;
};

}  // namespace baton::http
