#include "metrics/http_server.h"

#include "metrics/registry.h"

#include <asio/post.hpp>
#include <httplib.h>

#include <chrono>
#include <future>
#include <stdexcept>

namespace baton::metrics {

HttpServer::HttpServer(asio::io_context& io, std::function<std::string()> render)
    : io_(io), render_(std::move(render)), server_(std::make_unique<httplib::Server>()) {}

HttpServer::~HttpServer() { stop(); }

void HttpServer::start(const std::string& address) {
  server_->Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
    auto text = std::make_shared<std::promise<std::string>>();
    auto answer = text->get_future();
    asio::post(io_, [this, text] { text->set_value(render_()); });
    // A stuck event loop must not hold scrapers forever (the watchdog deals with it).
    if (answer.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
      response.status = 503;
      response.set_content("the event loop did not answer in 5 s\n", "text/plain");
      return;
    }
    response.set_content(answer.get(), content_type);
  });
  const auto colon = address.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error("metrics address '" + address + "' is not host:port");
  const std::string host = address.substr(0, colon);
  int port = 0;
  try {
    port = std::stoi(address.substr(colon + 1));
  } catch (const std::exception&) {
    throw std::runtime_error("metrics address '" + address + "' has no port number");
  }
  if (port == 0) port = server_->bind_to_any_port(host);
  else if (!server_->bind_to_port(host, port)) port = -1;
  if (port <= 0) throw std::runtime_error("cannot serve metrics at " + address);
  address_ = host + ":" + std::to_string(port);
  thread_ = std::thread([this] { server_->listen_after_bind(); });
}

void HttpServer::stop() {
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace baton::metrics
