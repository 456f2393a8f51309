#include "transport/authenticate.h"

#include <optional>

#include "security/key_schedule.h"
#include "transport/checksum.h"
#include "transport/deadline.h"
#include "transport/errors.h"
#include "transport/flow_frames.h"

namespace baton::transport {
namespace {

using Clock = std::chrono::steady_clock;

void put_field(std::string& out, std::string_view field) {
  out.push_back(static_cast<char>(field.size() >> 8));
  out.push_back(static_cast<char>(field.size() & 0xFF));
  out.append(field);
}

std::optional<std::string> take_field(std::string_view& in) {
  if (in.size() < 2) return std::nullopt;
  const std::size_t n =
      (static_cast<std::size_t>(static_cast<unsigned char>(in[0])) << 8) | static_cast<unsigned char>(in[1]);
  if (in.size() - 2 < n) return std::nullopt;
  std::string field(in.substr(2, n));
  in.remove_prefix(2 + n);
  return field;
}

asio::awaitable<std::error_code> send_control(Connection& connection, FrameKind kind, std::string_view payload,
                                              Clock::time_point deadline) {
  const auto bytes = std::as_bytes(std::span(payload.data(), payload.size()));
  const FrameHeader header{.kind = kind,
                           .job = 0,
                           .step = 0,
                           .length = static_cast<std::uint32_t>(bytes.size()),
                           .offset = 0,
                           .range_end = 0,
                           .checksum = xxh3_64(bytes)};
  co_return co_await connection.send_frame(encode_header(header), bytes, time_left(deadline));
}

Authentication failure(std::error_code error, std::string detail) {
  return {.error = error, .detail = std::move(detail), .value = {}};
}

// Ends the handshake: tells the peer why (best effort) and closes the connection.
// (Callers await it on a line of its own: GCC 12 destroys twice what a co_await inside a
// braced initializer makes.)
asio::awaitable<Authentication> refuse(Connection& connection, std::string why) {
  const FlowSpec no_flow{};  // named: GCC 12 mis-destroys aggregate temporaries passed into a coroutine
  co_await detail::send_reject(connection, no_flow, 0, why, std::chrono::milliseconds(1000));
  connection.fail(errc::authentication_failed);
  co_return failure(errc::authentication_failed, std::move(why));
}

// The peer's next control frame, which must be of `kind`: its payload, or why not.
struct Expected {
  std::optional<std::string> payload;
  Authentication failed;
};

asio::awaitable<Expected> expect(Connection& connection, FrameKind kind, Clock::time_point deadline) {
  const ReceivedFrame frame = co_await connection.receive_control(time_left(deadline));
  if (frame.error)
    co_return Expected{std::nullopt, failure(frame.error, std::string("waiting for ") + to_string(kind))};
  if (frame.header.kind == FrameKind::reject) {
    connection.fail(errc::rejected_by_peer);
    co_return Expected{std::nullopt, failure(errc::rejected_by_peer, detail::reject_reason(frame.payload))};
  }
  if (frame.header.kind != kind || frame.header.checksum != xxh3_64(frame.payload)) {
    Authentication refused = co_await refuse(connection, std::string("expected a well-formed ") + to_string(kind) +
                                                             " frame, got " + to_string(frame.header.kind));
    co_return Expected{std::nullopt, std::move(refused)};
  }
  co_return Expected{std::string(reinterpret_cast<const char*>(frame.payload.data()), frame.payload.size()), {}};
}

asio::awaitable<std::error_code> send_hello(Connection& connection, const security::Hello& hello,
                                            Clock::time_point deadline) {
  std::string payload;
  for (std::string_view field :
       {std::string_view(hello.role), std::string_view(hello.node_id), std::string_view(hello.nonce)}) {
    put_field(payload, field);
  }
  co_return co_await send_control(connection, FrameKind::hello, payload, deadline);
}

struct PeerHello {
  std::optional<security::Hello> hello;
  Authentication failed;
};

asio::awaitable<PeerHello> receive_hello(Connection& connection, std::string role, Clock::time_point deadline) {
  Expected got = co_await expect(connection, FrameKind::hello, deadline);
  if (!got.payload) co_return PeerHello{std::nullopt, std::move(got.failed)};
  std::string_view in = *got.payload;
  auto r = take_field(in), id = take_field(in), nonce = take_field(in);
  if (!r || !id || !nonce || !in.empty()) {
    Authentication refused = co_await refuse(connection, "a hello frame that does not parse");
    co_return PeerHello{std::nullopt, std::move(refused)};
  }
  security::Hello hello{.role = std::move(*r), .node_id = std::move(*id), .nonce = std::move(*nonce)};
  if (const std::optional<error::Refusal> why = security::hello_problem(hello, role)) {
    Authentication refused = co_await refuse(connection, "data-plane hello: " + why->reason);
    co_return PeerHello{std::nullopt, std::move(refused)};
  }
  co_return PeerHello{std::move(hello), {}};
}

// Reads the peer's proof and compares it with `expected`.
asio::awaitable<Authentication> check_proof(Connection& connection, const security::Mac& expected,
                                            const std::string& peer, Clock::time_point deadline) {
  Expected got = co_await expect(connection, FrameKind::proof, deadline);
  if (!got.payload) co_return std::move(got.failed);
  if (!security::equal_in_constant_time(*got.payload, security::view(expected))) {
    co_return co_await refuse(
        connection, "authentication failed: the proof of node '" + peer + "' does not match this cluster's secret");
  }
  co_return Authentication{.error = {}, .detail = {}, .value = peer};
}

}  // namespace

asio::awaitable<Authentication> authenticate_as_sender(Connection& connection, NodeIdentity self,
                                                       std::string expected_receiver,
                                                       std::chrono::milliseconds deadline_after) {
  const Clock::time_point deadline = Clock::now() + deadline_after;
  const security::Hello mine = security::make_hello("sender", self.node_id);
  if (auto error = co_await send_hello(connection, mine, deadline)) co_return failure(error, "sending hello");
  PeerHello theirs = co_await receive_hello(connection, "receiver", deadline);
  if (!theirs.hello) co_return std::move(theirs.failed);
  if (theirs.hello->node_id != expected_receiver) {
    co_return co_await refuse(connection, "expected node '" + expected_receiver + "' at this address, reached '" +
                                              theirs.hello->node_id + "'");
  }
  const security::SessionKeys keys = security::derive_session_keys(self.secret, "data", mine, *theirs.hello);
  if (auto error =
          co_await send_control(connection, FrameKind::proof, security::view(keys.initiator_finished), deadline)) {
    co_return failure(error, "sending proof");
  }
  Authentication proven = co_await check_proof(connection, keys.responder_finished, theirs.hello->node_id, deadline);
  if (proven.ok()) connection.protect(keys.initiator_to_responder, keys.responder_to_initiator);
  co_return proven;
}

asio::awaitable<Authentication> authenticate_as_receiver(Connection& connection, NodeIdentity self,
                                                         std::chrono::milliseconds deadline_after) {
  const Clock::time_point deadline = Clock::now() + deadline_after;
  PeerHello theirs = co_await receive_hello(connection, "sender", deadline);
  if (!theirs.hello) co_return std::move(theirs.failed);
  const security::Hello mine = security::make_hello("receiver", self.node_id);
  if (auto error = co_await send_hello(connection, mine, deadline)) co_return failure(error, "sending hello");
  const security::SessionKeys keys = security::derive_session_keys(self.secret, "data", *theirs.hello, mine);
  // The receiver proves nothing before the sender has (docs/security.md).
  Authentication proven = co_await check_proof(connection, keys.initiator_finished, theirs.hello->node_id, deadline);
  if (!proven.ok()) co_return proven;
  if (auto error =
          co_await send_control(connection, FrameKind::proof, security::view(keys.responder_finished), deadline)) {
    co_return failure(error, "sending proof");
  }
  connection.protect(keys.responder_to_initiator, keys.initiator_to_responder);
  co_return proven;
}

}  // namespace baton::transport
