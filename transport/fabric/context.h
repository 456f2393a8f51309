// The libfabric transport: one reliable-datagram endpoint per context, tagged messages
// with completion queues, the buffer pool registered with the domain (fi_mr_reg), and
// addresses exchanged out of band (Listener::address() is the text to hand to peers).
//
// The provider comes from configuration ("tcp;ofi_rxm", "sockets", "shm", "verbs;ofi_rxm",
// "efa" ...). If it is missing, open() says so plainly with errc::provider_unavailable and
// lists what the machine has; falling back to TCP is open_context()'s business (open.h).
// See transport/context.h for lifetimes and threading.
#pragma once

#include <memory>
#include <string>

#include "transport/context.h"
#include "transport/fabric/endpoint.h"

namespace baton::transport::fabric {

class Context final : public transport::Context {
 public:
  static error::Result<std::unique_ptr<Context>> open(asio::any_io_executor executor, const EndpointOptions& fabric,
                                                      ContextOptions options);
  ~Context() override;

  // `address` must be empty: a context listens on its one endpoint, and only once.
  error::Result<std::unique_ptr<transport::Listener>> listen(const std::string& address) override;
  asio::awaitable<error::Result<std::unique_ptr<transport::Connection>>> connect(std::string address) override;
  std::string name() const override { return "fabric/" + endpoint_->provider(); }

 private:
  Context(asio::any_io_executor executor, ContextOptions options, std::unique_ptr<Endpoint> endpoint);

  std::unique_ptr<Endpoint> endpoint_;
  bool listening_ = false;
};

}  // namespace baton::transport::fabric
