// The handshake's key schedule, shared by the control channel (agent -> coordinator) and
// data connections (sender -> receiver). Modelled on TLS 1.3's PSK-only mode (RFC 8446
// section 7.1: keys from HKDF over the pre-shared key and the transcript hash, a Finished
// MAC per direction); docs/security.md gives the argument.
//
//   initiator -> responder   Hello(role, node id, 32-byte nonce)
//   responder -> initiator   Hello(role, node id, 32-byte nonce)
//   initiator -> responder   Finished_i = HMAC(K_i_fin, TH)
//   responder -> initiator   Finished_r = HMAC(K_r_fin, TH), sent only once Finished_i checked
//   then every message each way carries HMAC(K_traffic, sequence number || message)
//
// TH = SHA-256 of the plane's label and both Hellos, length-prefixed field by field; the
// keys are HKDF-Expand(HKDF-Extract("baton-handshake-v2", secret), label || TH) with one
// label per key. Both nonces, both roles, both node ids and the plane are in TH, so a
// Finished is valid in no other session, direction or plane.
#pragma once

#include "error/refusal.h"
#include "security/hmac.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace baton::security {

inline constexpr std::size_t kNonceBytes = 32;
inline constexpr std::size_t kMinSecretBytes = 16;
inline constexpr std::size_t kMaxNodeIdBytes = 256;

struct Hello {
  std::string role;     // "agent" / "coordinator" on the control plane; "sender" / "receiver" on data
  std::string node_id;  // 1 to kMaxNodeIdBytes bytes
  std::string nonce;    // kNonceBytes, fresh for every handshake
};

struct SessionKeys {
  Mac initiator_finished;              // what the initiator must send
  Mac responder_finished;              // what the responder must send
  std::string initiator_to_responder;  // traffic MAC key, initiator's messages
  std::string responder_to_initiator;  // traffic MAC key, responder's messages
};

// Both sides compute the same keys from their own view of the two Hellos. Throws
// error::InvalidInput for a secret shorter than kMinSecretBytes, a nonce of another
// size or a node id out of bounds.
SessionKeys derive_session_keys(std::string_view secret, std::string_view plane, const Hello& initiator,
                                const Hello& responder);

// A fresh Hello for `role` and `node_id`, with a nonce from random_bytes().
Hello make_hello(std::string role, std::string node_id);

// Why `hello` cannot be part of a handshake, for refusals; nothing when it can.
std::optional<error::Refusal> hello_problem(const Hello& hello, std::string_view expected_role);

}  // namespace baton::security
