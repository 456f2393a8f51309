// The mutual handshake that opens every control session (docs/security.md): the agent
// (initiator) and the coordinator (responder) exchange Hellos with fresh nonces, then
// Finished proofs from the key schedule in security/key_schedule.h, the initiator's first;
// the responder proves only once it has checked the initiator's. Nothing else is read
// before both proofs check out, frames are capped at kHandshakeMaxFrame until then, and
// afterwards every message on the channel is sealed with the session's keys.
#pragma once

#include "error/error.h"
#include "protocol/channel.h"

#include <asio/awaitable.hpp>

#include <chrono>
#include <string>
#include <utility>

namespace baton::protocol {

// what(): the whole story, naming the peer's address. peer_node: the node id the peer's
// Hello claimed (unauthenticated; empty before a Hello); reason: why, in a few words.
class AuthError : public error::Error {
 public:
  explicit AuthError(const std::string& what, std::string peer_node = {}, std::string reason = {})
      : error::Error(what), peer_node_(std::move(peer_node)), reason_(std::move(reason)) {}
  const std::string& peer_node() const { return peer_node_; }
  std::string reason() const { return reason_.empty() ? what() : reason_; }

 private:
  std::string peer_node_;
  std::string reason_;
};

struct Identity {
  std::string role;     // "coordinator" or "agent"
  std::string node_id;  // this side's id
  std::string secret;   // the cluster's shared secret (at least security::kMinSecretBytes)
};

// Which end of the connection this side is: the one that connected initiates.
enum class Side { initiator, responder };

// Runs the handshake within `deadline` (all of it, not per message) and returns the
// peer's node id; the channel is then protected (Channel::protect). A peer with another
// role than `peer_role`, a wrong proof or a Refusal ends it: the peer is told why
// (Refusal) and AuthError is thrown. Channel errors propagate as they are.
// (Parameters are taken by value: a coroutine's reference parameters could outlive the
// caller's temporaries.)
asio::awaitable<std::string> handshake(Channel& channel, Side side, Identity self, std::string peer_role,
                                       std::chrono::milliseconds deadline);

// Reads the cluster's secret from a file (trailing newlines dropped). Throws
// error::SystemError naming the file if it cannot be read, error::InvalidInput if it holds fewer than
// security::kMinSecretBytes bytes.
std::string load_secret(const std::string& path);

}  // namespace baton::protocol
