// A libfabric listener: waits for a peer's hello (its address and a connection id) on the
// endpoint, adds the peer to the address vector and welcomes it. See transport/listener.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "transport/buffer.h"
#include "transport/fabric/endpoint.h"
#include "transport/listener.h"

namespace baton::transport::fabric {

class Listener final : public transport::Listener {
 public:
  // The endpoint and pool must outlive the listener (they belong to its Context).
  Listener(Endpoint& endpoint, BufferPool& pool) : endpoint_(endpoint), pool_(pool) {}
  asio::awaitable<error::Result<std::unique_ptr<transport::Connection>>> accept(
      std::chrono::milliseconds timeout) override;
  std::string address() const override { return endpoint_.address(); }
  // Abandons the hello receive or welcome send in flight (Endpoint::abandon).
  void close() noexcept override;

 private:
  Endpoint& endpoint_;
  BufferPool& pool_;
  bool closed_ = false;
  Operation* in_flight_ = nullptr;  // the accept's hello receive or welcome send
};

inline constexpr std::size_t max_hello = 600;

// The hello a connecting peer sends: "BTNH1 <id in hex> <its address in hex>".
std::string hello_text(std::uint64_t id, const std::string& address);

struct Hello {
  std::uint64_t id = 0;
  std::string address;
};
// Parses a hello; nullopt if it is not one (wrong prefix, bad id, too long).
std::optional<Hello> parse_hello(std::string_view text);

}  // namespace baton::transport::fabric
