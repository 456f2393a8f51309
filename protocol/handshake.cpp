#include "protocol/handshake.h"

#include "protocol/auth.h"

#include <fstream>
#include <sstream>

namespace baton::protocol {
namespace {

// The peer's next message, which must be `expected`; a Refusal or anything else ends the
// handshake.
asio::awaitable<Envelope> expect(Channel& channel, Envelope::BodyCase expected, std::string_view name,
                                 std::chrono::milliseconds timeout) {
  Envelope envelope = co_await channel.receive(timeout);
  if (envelope.body_case() == Envelope::kRefusal) {
    channel.close();
    throw AuthError(channel.peer() + " refused us: " + envelope.refusal().reason());
  }
  if (envelope.body_case() != expected) {
    const std::string why = "expected " + std::string(name) + " during the handshake, got " + std::string(type_name(envelope));
    co_await channel.refuse(why);
    throw AuthError(channel.peer() + ": " + why);
  }
  co_return envelope;
}

}  // namespace

asio::awaitable<std::string> handshake(Channel& channel, Identity self, std::string peer_role,
                                       std::chrono::milliseconds timeout) {
  const std::string nonce = make_nonce();
  Envelope hello;
  hello.mutable_hello()->set_role(self.role);
  hello.mutable_hello()->set_node_id(self.node_id);
  hello.mutable_hello()->set_nonce(nonce);
  co_await channel.send(std::move(hello), timeout);

  const Envelope theirs = co_await expect(channel, Envelope::kHello, "hello", timeout);
  const Hello& peer = theirs.hello();
  if (peer.role() != peer_role || peer.nonce().size() != kNonceBytes || peer.node_id().empty() ||
      peer.node_id().size() > 256) {
    const std::string why = "a " + peer_role + " with a " + std::to_string(kNonceBytes) +
                            "-byte nonce and a node id of 1 to 256 bytes was expected";
    co_await channel.refuse(why);
    throw AuthError(channel.peer() + ": " + why);
  }

  Envelope proof;
  proof.mutable_proof()->set_mac(prove(self.secret, {.role = self.role, .node_id = self.node_id,
                                                     .verifier_nonce = peer.nonce(), .prover_nonce = nonce}));
  co_await channel.send(std::move(proof), timeout);

  const Envelope answer = co_await expect(channel, Envelope::kProof, "proof", timeout);
  if (!verify(self.secret, {.role = peer.role(), .node_id = peer.node_id(), .verifier_nonce = nonce,
                            .prover_nonce = peer.nonce()},
              answer.proof().mac())) {
    co_await channel.refuse("authentication failed: the proof does not match this cluster's secret");
    throw AuthError(channel.peer() + " (" + peer.node_id() + ") failed authentication: wrong cluster secret");
  }
  co_return peer.node_id();
}

std::string load_secret(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read the cluster secret file " + path);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  std::string secret = bytes.str();
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  if (secret.size() < kMinSecretBytes) {
    throw std::runtime_error("the cluster secret in " + path + " has " + std::to_string(secret.size()) +
                             " bytes; at least " + std::to_string(kMinSecretBytes) + " are needed");
  }
  return secret;
}

}  // namespace baton::protocol
