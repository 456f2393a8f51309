// A daemon's /metrics endpoint on its own address (the agent's `metrics_address`),
// served by cpp-httplib on its own thread. Each scrape posts `render` to the daemon's
// event loop, where its metrics live, and answers with its text.
#pragma once

#include <asio/io_context.hpp>

#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace httplib {
class Server;
}

namespace baton::metrics {

class HttpServer {
 public:
  HttpServer(asio::io_context& io, std::function<std::string()> render);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds "host:port" (port 0: any) and serves GET /metrics. Throws std::runtime_error
  // naming the address when it cannot.
  void start(const std::string& address);
  // Stops serving; call before the io_context stops running (a scrape waits for it).
  void stop();
  std::string address() const { return address_; }

 private:
  asio::io_context& io_;
  std::function<std::string()> render_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  std::string address_;
};

}  // namespace baton::metrics
