// The TCP transport on Asio: every listener and connection runs on the context's executor,
// so one io_context thread serves many concurrent flows. See transport/context.h.
#pragma once

#include <optional>
#include <string>

#include <asio/ip/tcp.hpp>

#include "transport/context.h"

namespace baton::transport::tcp {

class Context final : public transport::Context {
 public:
  Context(asio::any_io_executor executor, ContextOptions options);

  error::Result<std::unique_ptr<transport::Listener>> listen(const std::string& address) override;
  asio::awaitable<error::Result<std::unique_ptr<transport::Connection>>> connect(std::string address) override;
  std::string name() const override { return "tcp"; }
};

// Parses "1.2.3.4:port" or "[::1]:port" (numeric hosts only: the data plane does no DNS).
std::optional<asio::ip::tcp::endpoint> parse_endpoint(const std::string& address);

}  // namespace baton::transport::tcp
