#include "transport/fabric/context.h"

#include <random>

#include <rdma/fi_tagged.h>

#include "error/error.h"
#include "transport/errors.h"
#include "transport/fabric/connection.h"
#include "transport/fabric/listener.h"
#include "transport/fabric/memory_registration.h"

namespace baton::transport::fabric {

using Connected = error::Result<std::unique_ptr<transport::Connection>>;

namespace {

std::uint64_t new_connection_id() {
  static std::mt19937_64 random{std::random_device{}()};
  std::uint64_t id = 0;
  while (id == 0) id = random() & max_connection_id;
  return id;
}

}  // namespace

error::Result<std::unique_ptr<Context>> Context::open(asio::any_io_executor executor, const EndpointOptions& fabric,
                                                      ContextOptions options) {
  auto opened = Endpoint::open(executor, fabric);
  if (!opened.ok()) return {.error = opened.error, .detail = std::move(opened.detail), .value = {}};
  try {
    return {.error = {},
            .detail = {},
            .value = std::unique_ptr<Context>(new Context(std::move(executor), options, std::move(opened.value)))};
  } catch (const error::SystemError& error) {
    return {.error = error.code(), .detail = error.what(), .value = {}};
  }
}

Context::Context(asio::any_io_executor executor, ContextOptions options, std::unique_ptr<Endpoint> endpoint)
    : transport::Context(std::move(executor), options), endpoint_(std::move(endpoint)) {
  make_pool(domain_registration(endpoint_->domain()));
}

Context::~Context() {
  endpoint_->shut();  // no more I/O into the pool's memory ...
  drop_pool();        // ... then free and deregister it, while the domain is still open
}

error::Result<std::unique_ptr<transport::Listener>> Context::listen(const std::string& address) {
  if (!address.empty()) {
    return {.error = errc::bad_address,
            .detail = "a libfabric context listens on its own endpoint: pass an empty address",
            .value = {}};
  }
  if (listening_) {
    return {.error = std::make_error_code(std::errc::address_in_use),
            .detail = "this libfabric context already has a listener",
            .value = {}};
  }
  listening_ = true;
  return {.error = {}, .detail = {}, .value = std::make_unique<Listener>(*endpoint_, pool())};
}

asio::awaitable<error::Result<std::unique_ptr<transport::Connection>>> Context::connect(std::string address) {
  std::string detail;
  const auto peer = endpoint_->insert(address, detail);
  if (!peer) co_return Connected{.error = errc::bad_address, .detail = detail, .value = {}};
  const auto deadline = std::chrono::steady_clock::now() + options().connect_timeout;
  const std::uint64_t id = new_connection_id();

  const std::string hello = hello_text(id, endpoint_->address());
  auto op = endpoint_->make_operation();
  const auto sent = co_await send_message(*endpoint_, op, *peer, hello_tag,
                                          std::as_bytes(std::span(hello.data(), hello.size())), {}, deadline);
  if (sent.error) {
    co_return Connected{
        .error = sent.error,
        .detail = "sending hello to " + endpoint_->describe(*peer) + ": " + sent.error.message() + " " + sent.detail,
        .value = {}};
  }
  auto welcome_op = endpoint_->make_operation();
  const auto welcome =
      co_await receive_message(*endpoint_, welcome_op, *peer, welcome_tag(id), sizeof(std::uint64_t), deadline);
  if (welcome.error) {
    co_return Connected{
        .error = welcome.error,
        .detail = "no welcome from " + endpoint_->describe(*peer) + " within the connect timeout (is it accepting?)",
        .value = {}};
  }
  co_return Connected{.error = {},
                      .detail = {},
                      .value = std::make_unique<Connection>(*endpoint_, pool(),
                                                            LinkOptions{.peer = *peer,
                                                                        .peer_name = endpoint_->describe(*peer),
                                                                        .send_tag = data_tag(id, false),
                                                                        .receive_tag = data_tag(id, true)})};
}

}  // namespace baton::transport::fabric
