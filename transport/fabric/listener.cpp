#include "transport/fabric/listener.h"

#include <charconv>

#include <rdma/fi_tagged.h>

#include "transport/errors.h"
#include "transport/fabric/connection.h"

namespace baton::transport::fabric {

using Connected = error::Result<std::unique_ptr<transport::Connection>>;

std::string hello_text(std::uint64_t id, const std::string& address) {
  std::array<char, 17> digits{};
  const auto end = std::to_chars(digits.data(), digits.data() + digits.size(), id, 16).ptr;
  return "BTNH1 " + std::string(digits.data(), end) + " " + address;
}

std::optional<Hello> parse_hello(std::string_view text) {
  constexpr std::string_view prefix = "BTNH1 ";
  if (text.size() > max_hello || text.substr(0, prefix.size()) != prefix) return std::nullopt;
  text.remove_prefix(prefix.size());
  const auto space = text.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  Hello hello;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + space, hello.id, 16);
  if (ec != std::errc{} || end != text.data() + space || hello.id == 0 || hello.id > max_connection_id)
    return std::nullopt;
  hello.address = std::string(text.substr(space + 1));
  if (hello.address.empty()) return std::nullopt;
  return hello;
}

asio::awaitable<error::Result<std::unique_ptr<transport::Connection>>> Listener::accept(
    std::chrono::milliseconds timeout) {
  if (closed_) co_return Connected{.error = errc::connection_failed, .detail = {}, .value = {}};
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto op = endpoint_.make_operation();
  error::Status outcome;
  {
    const InFlight in_flight(in_flight_, *op);
    outcome = co_await receive_message(endpoint_, op, FI_ADDR_UNSPEC, hello_tag, max_hello, deadline);
  }
  if (outcome.error) co_return Connected{.error = outcome.error, .detail = {}, .value = {}};

  const auto hello = parse_hello(std::string_view(reinterpret_cast<const char*>(op->heap.data()), op->length));
  if (!hello) co_return Connected{.error = errc::unexpected_frame, .detail = {}, .value = {}};
  std::string detail;
  const auto peer = endpoint_.insert(hello->address, detail);
  if (!peer) co_return Connected{.error = errc::bad_address, .detail = {}, .value = {}};

  const std::uint64_t id = hello->id;
  auto reply = endpoint_.make_operation();
  error::Status welcome;
  {
    const InFlight in_flight(in_flight_, *reply);
    welcome =
        co_await send_message(endpoint_, reply, *peer, welcome_tag(id), std::as_bytes(std::span(&id, 1)), {}, deadline);
  }
  if (closed_) co_return Connected{.error = errc::connection_failed, .detail = {}, .value = {}};
  if (welcome.error) co_return Connected{.error = welcome.error, .detail = {}, .value = {}};
  co_return Connected{.error = {},
                      .detail = {},
                      .value = std::make_unique<Connection>(endpoint_, pool_,
                                                            LinkOptions{.peer = *peer,
                                                                        .peer_name = endpoint_.describe(*peer),
                                                                        .send_tag = data_tag(id, true),
                                                                        .receive_tag = data_tag(id, false)})};
}

void Listener::close() noexcept {
  closed_ = true;
  if (in_flight_ != nullptr) Endpoint::abandon(*in_flight_);
}

}  // namespace baton::transport::fabric
