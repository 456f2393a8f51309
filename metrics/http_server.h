// A daemon's /metrics endpoint on an address of its own (the agent's `metrics_address`),
// served by cpp-httplib on its own thread. Each scrape calls `render` on that thread, so
// `render` must be thread-safe (Registry::render is) and outlive the server.
#pragma once

#include "http/server_thread.h"

#include <functional>
#include <memory>
#include <string>

namespace httplib {
class Server;
}

namespace baton::metrics {

class HttpServer {
 public:
  explicit HttpServer(std::function<std::string()> render);
  ~HttpServer();  // stops serving
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds "host:port" (port 0: any free port; an IPv6 host in brackets) and serves
  // GET /metrics. Throws an error::Error naming the address when it cannot.
  void start(const std::string& address);
  void stop();
  // The bound "host:port" (the real port when started with 0).
  std::string address() const { return serving_.address(); }

 private:
  std::function<std::string()> render_;
  std::unique_ptr<httplib::Server> server_;
  http::ServerThread serving_;
};

}  // namespace baton::metrics
