#include "protocol/handshake.h"

#include "error/error.h"
#include "security/key_schedule.h"
#include "transport/deadline.h"

#include <fstream>
#include <sstream>

namespace baton::protocol {
namespace {

using Clock = std::chrono::steady_clock;

// The peer's next message, which must be `expected`; a Refusal or anything else ends the
// handshake.
asio::awaitable<Envelope> expect(Channel& channel, Envelope::BodyCase expected, std::string_view name,
                                 Clock::time_point deadline) {
  Envelope envelope = co_await channel.receive(transport::time_left(deadline));
  if (envelope.body_case() == Envelope::kRefusal) {
    channel.close();
    throw AuthError(channel.peer() + " refused us: " + envelope.refusal().reason());
  }
  if (envelope.body_case() != expected) {
    const std::string why =
        "expected " + std::string(name) + " during the handshake, got " + std::string(type_name(envelope));
    co_await channel.refuse(why);
    throw AuthError(channel.peer() + ": " + why);
  }
  co_return envelope;
}

asio::awaitable<void> send_hello(Channel& channel, const security::Hello& hello, Clock::time_point deadline) {
  Envelope envelope;
  envelope.mutable_hello()->set_role(hello.role);
  envelope.mutable_hello()->set_node_id(hello.node_id);
  envelope.mutable_hello()->set_nonce(hello.nonce);
  co_await channel.send(std::move(envelope), transport::time_left(deadline));
}

asio::awaitable<security::Hello> receive_hello(Channel& channel, const std::string& peer_role,
                                               Clock::time_point deadline) {
  const Envelope envelope = co_await expect(channel, Envelope::kHello, "hello", deadline);
  security::Hello hello{
      .role = envelope.hello().role(), .node_id = envelope.hello().node_id(), .nonce = envelope.hello().nonce()};
  if (const std::optional<error::Refusal> why = security::hello_problem(hello, peer_role)) {
    co_await channel.refuse(why->reason);
    throw AuthError(channel.peer() + ": " + why->reason, hello.node_id, why->reason);
  }
  co_return hello;
}

asio::awaitable<void> send_proof(Channel& channel, const security::Mac& mac, Clock::time_point deadline) {
  Envelope envelope;
  envelope.mutable_proof()->set_mac(std::string(security::view(mac)));
  co_await channel.send(std::move(envelope), transport::time_left(deadline));
}

asio::awaitable<void> check_proof(Channel& channel, const security::Mac& expected, const std::string& peer_id,
                                  Clock::time_point deadline) {
  const Envelope answer = co_await expect(channel, Envelope::kProof, "proof", deadline);
  if (!security::equal_in_constant_time(answer.proof().mac(), security::view(expected))) {
    co_await channel.refuse("authentication failed: the proof does not match this cluster's secret");
    throw AuthError(channel.peer() + " (" + peer_id + ") failed authentication: wrong cluster secret", peer_id,
                    "wrong cluster secret");
  }
}

}  // namespace

asio::awaitable<std::string> handshake(Channel& channel, Side side, Identity self, std::string peer_role,
                                       std::chrono::milliseconds deadline_after) {
  const Clock::time_point deadline = Clock::now() + deadline_after;
  channel.limit_frames(kHandshakeMaxFrame);
  const security::Hello mine = security::make_hello(self.role, self.node_id);
  if (side == Side::initiator) {
    co_await send_hello(channel, mine, deadline);
    const security::Hello theirs = co_await receive_hello(channel, peer_role, deadline);
    const security::SessionKeys keys = security::derive_session_keys(self.secret, "control", mine, theirs);
    co_await send_proof(channel, keys.initiator_finished, deadline);
    co_await check_proof(channel, keys.responder_finished, theirs.node_id, deadline);
    channel.protect(keys.initiator_to_responder, keys.responder_to_initiator);
    co_return theirs.node_id;
  }
  const security::Hello theirs = co_await receive_hello(channel, peer_role, deadline);
  co_await send_hello(channel, mine, deadline);
  const security::SessionKeys keys = security::derive_session_keys(self.secret, "control", theirs, mine);
  // The responder checks before it proves anything (docs/security.md).
  co_await check_proof(channel, keys.initiator_finished, theirs.node_id, deadline);
  co_await send_proof(channel, keys.responder_finished, deadline);
  channel.protect(keys.responder_to_initiator, keys.initiator_to_responder);
  co_return theirs.node_id;
}

std::string load_secret(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw error::SystemError("cannot read the cluster secret file " + path);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  std::string secret = bytes.str();
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  if (secret.size() < security::kMinSecretBytes) {
    throw error::InvalidInput("the cluster secret in " + path + " has " + std::to_string(secret.size()) +
                              " bytes; at least " + std::to_string(security::kMinSecretBytes) + " are needed");
  }
  return secret;
}

}  // namespace baton::protocol
