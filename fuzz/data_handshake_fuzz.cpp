// The data-plane handshake (transport/authenticate.h) on hello, proof and reject frames a
// peer scripted (scripted_connection.h). The first byte picks the side under test (bit 0:
// sender, else receiver); the rest is the script. Fix-up bit 1 on a 32-byte proof frame
// replaces it with the Finished MAC the honest peer would send, so the fuzzer reaches the
// end of the handshake too. Whatever arrives, authentication must end, succeed only for
// the node expected and then protect the connection, and fail with the connection closed.
#include <asio/co_spawn.hpp>
#include <asio/io_context.hpp>

#include <cstdlib>
#include <cstring>
#include <optional>

#include "error/error.h"
#include "fuzz/scripted_connection.h"
#include "security/key_schedule.h"
#include "transport/authenticate.h"
#include "transport/checksum.h"

namespace {

using namespace baton;

const std::string kSecret = "fuzzing-secret-of-32-bytes-long!";

// A hello payload (three fields, each a 2-byte big-endian length and its bytes), or nothing.
std::optional<security::Hello> parse_hello(std::string_view in) {
  std::string fields[3];
  for (std::string& field : fields) {
    if (in.size() < 2) return std::nullopt;
    const std::size_t n =
        (static_cast<std::size_t>(static_cast<unsigned char>(in[0])) << 8) | static_cast<unsigned char>(in[1]);
    if (in.size() - 2 < n) return std::nullopt;
    field = in.substr(2, n);
    in.remove_prefix(2 + n);
  }
  if (!in.empty()) return std::nullopt;
  return security::Hello{.role = fields[0], .node_id = fields[1], .nonce = fields[2]};
}

asio::awaitable<void> authenticate(transport::Connection& connection, bool as_sender, transport::NodeIdentity self,
                                   std::optional<transport::Authentication>& result) {
  // (if/else, not ?: : GCC 12 destroys a co_await's result twice inside a conditional expression)
  if (as_sender) {
    result = co_await transport::authenticate_as_sender(connection, self, "receiver-1", std::chrono::seconds(5));
  } else {
    result = co_await transport::authenticate_as_receiver(connection, self, std::chrono::seconds(5));
  }
}

void rethrow(std::exception_ptr error) {
  if (error) std::rethrow_exception(error);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool as_sender = (data[0] & 1) != 0;
  const transport::NodeIdentity self{.node_id = as_sender ? "sender-1" : "receiver-1", .secret = kSecret};
  std::optional<security::Hello> theirs;
  const fuzz::ScriptedConnection* peer_view = nullptr;
  fuzz::ScriptedConnection connection(
      std::as_bytes(std::span(data + 1, size - 1)),
      [&](std::uint8_t fixups, transport::FrameHeader& header, std::span<std::byte> payload) {
        const std::string_view text(reinterpret_cast<const char*>(payload.data()), payload.size());
        if (header.kind == transport::FrameKind::hello) theirs = parse_hello(text);
        if (!(fixups & 2) || header.kind != transport::FrameKind::proof || payload.size() != security::kMacBytes)
          return;
        const auto& sent = peer_view->sent();
        if (!theirs || sent.empty()) return;
        const std::optional<security::Hello> mine = parse_hello(sent.front().payload);
        if (!mine) std::abort();  // our own hello must parse
        try {
          const security::SessionKeys keys = as_sender ? security::derive_session_keys(kSecret, "data", *mine, *theirs)
                                                       : security::derive_session_keys(kSecret, "data", *theirs, *mine);
          const security::Mac& proof = as_sender ? keys.responder_finished : keys.initiator_finished;
          std::memcpy(payload.data(), proof.data(), proof.size());
          if (fixups & 1) header.checksum = transport::xxh3_64(payload);
        } catch (const baton::error::InvalidInput&) {  // their hello is invalid: the handshake refuses it
        }
      });
  peer_view = &connection;

  asio::io_context io;
  std::optional<transport::Authentication> result;
  asio::co_spawn(io, authenticate(connection, as_sender, self, result), rethrow);
  io.run();
  if (!result) std::abort();  // the handshake never finished
  if (result->ok()) {
    if (!theirs || result->value != theirs->node_id || !connection.is_protected()) std::abort();
    if (as_sender && result->value != "receiver-1") std::abort();
  } else if (!connection.closed() || connection.is_protected()) {
    std::abort();
  }
  return 0;
}
