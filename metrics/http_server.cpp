#include "metrics/http_server.h"

#include "http/server.h"
#include "metrics/registry.h"

#include <httplib.h>

namespace baton::metrics {

HttpServer::HttpServer(std::function<std::string()> render)
    : render_(std::move(render)), server_(std::make_unique<http::Server>()), serving_(*server_) {}

HttpServer::~HttpServer() { stop(); }

void HttpServer::start(const std::string& address) {
  server_->Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
    response.set_content(render_(), content_type);
  });
  serving_.start(address, "metrics");
}

void HttpServer::stop() { serving_.stop(); }

}  // namespace baton::metrics
