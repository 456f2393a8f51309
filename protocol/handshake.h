// The mutual handshake that opens every control session (docs/runtime.md, step 1): both
// sides send Hello with a fresh nonce, then a Proof over both nonces (auth.h), and check
// the peer's. Nothing else is read before both proofs check out.
#pragma once

#include "protocol/channel.h"

#include <asio/awaitable.hpp>

#include <chrono>
#include <stdexcept>
#include <string>
#include <string_view>

namespace baton::protocol {

class AuthError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Identity {
  std::string role;     // "coordinator" or "agent"
  std::string node_id;  // this side's id
  std::string secret;   // the cluster's shared secret (at least kMinSecretBytes)
};

// Runs the handshake and returns the peer's node id. A peer with another role than
// `peer_role`, a wrong proof or a Refusal ends it: the peer is told why (Refusal) and
// AuthError is thrown. Channel errors propagate as they are.
// (Parameters are taken by value: a coroutine's reference parameters could outlive the
// caller's temporaries.)
asio::awaitable<std::string> handshake(Channel& channel, Identity self, std::string peer_role,
                                       std::chrono::milliseconds timeout);

// Reads the cluster's secret from a file (trailing newlines dropped). Throws
// std::runtime_error naming the file if it cannot be read or holds fewer than
// kMinSecretBytes bytes.
std::string load_secret(const std::string& path);

}  // namespace baton::protocol
