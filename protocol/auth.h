// Mutual authentication with the cluster's shared secret: each side sends a fresh nonce
// in its Hello and answers the peer's with an HMAC-SHA256 proof. The proof binds the
// prover's role and node id and both nonces, so it cannot be replayed on another
// connection or reflected back at its author.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace baton::protocol {

inline constexpr std::size_t kNonceBytes = 32;
inline constexpr std::size_t kMinSecretBytes = 16;

// kNonceBytes from the system's cryptographic random source.
std::string make_nonce();

struct ProofInput {
  std::string_view role;            // the prover's: "coordinator" or "agent"
  std::string_view node_id;         // the prover's
  std::string_view verifier_nonce;  // the nonce the verifier sent
  std::string_view prover_nonce;    // the nonce the prover sent
};

// The 32-byte MAC the prover sends. Throws std::invalid_argument for a secret shorter
// than kMinSecretBytes or nonces of the wrong size.
std::string prove(std::string_view secret, const ProofInput& input);

// Whether `mac` is the proof for `input`, compared in constant time.
bool verify(std::string_view secret, const ProofInput& input, std::string_view mac);

}  // namespace baton::protocol
