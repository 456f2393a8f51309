#include "security/key_schedule.h"

#include "error/error.h"
#include "security/random.h"

#include <openssl/evp.h>

#include <cstdint>

namespace baton::security {
namespace {

void append_field(std::string& out, std::string_view field) {
  const auto n = static_cast<std::uint32_t>(field.size());
  const char length[4] = {static_cast<char>(n >> 24), static_cast<char>(n >> 16), static_cast<char>(n >> 8),
                          static_cast<char>(n)};
  out.append(length, 4);  // length-prefixed: no two transcripts share an encoding
  out.append(field);
}

std::string sha256(std::string_view bytes) {
  std::string digest(EVP_MAX_MD_SIZE, '\0');
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), reinterpret_cast<unsigned char*>(digest.data()), &length, EVP_sha256(),
                 nullptr) != 1) {
    throw error::SystemError("SHA-256 failed");
  }
  digest.resize(length);
  return digest;
}

// HKDF-Expand (RFC 5869) for one 32-byte block: HMAC(prk, info || 0x01).
std::string expand(std::string_view prk, std::string_view label, std::string_view transcript_hash) {
  return std::string(view(hmac_sha256(prk, {label, transcript_hash, std::string_view("\x01", 1)})));
}

}  // namespace

std::optional<error::Refusal> hello_problem(const Hello& hello, std::string_view expected_role) {
  if (hello.role != expected_role) return "a " + std::string(expected_role) + " was expected, not '" + hello.role + "'";
  if (hello.nonce.size() != kNonceBytes) return "the nonce must be " + std::to_string(kNonceBytes) + " bytes";
  if (hello.node_id.empty() || hello.node_id.size() > kMaxNodeIdBytes) {
    return "the node id must be 1 to " + std::to_string(kMaxNodeIdBytes) + " bytes";
  }
  return std::nullopt;
}

Hello make_hello(std::string role, std::string node_id) {
  return {.role = std::move(role), .node_id = std::move(node_id), .nonce = random_bytes(kNonceBytes)};
}

SessionKeys derive_session_keys(std::string_view secret, std::string_view plane, const Hello& initiator,
                                const Hello& responder) {
  if (secret.size() < kMinSecretBytes) {
    throw error::InvalidInput("the cluster secret must hold at least " + std::to_string(kMinSecretBytes) + " bytes");
  }
  for (const Hello* hello : {&initiator, &responder}) {
    if (std::optional<error::Refusal> why = hello_problem(*hello, hello->role)) throw error::InvalidInput(why->reason);
  }
  std::string transcript;
  for (std::string_view field :
       {std::string_view("baton-handshake-v2"), plane, std::string_view(initiator.role),
        std::string_view(initiator.node_id), std::string_view(initiator.nonce), std::string_view(responder.role),
        std::string_view(responder.node_id), std::string_view(responder.nonce)}) {
    append_field(transcript, field);
  }
  const std::string th = sha256(transcript);
  // HKDF-Extract (RFC 5869) with a fixed salt: the secret is the only input keying material.
  const Mac prk = hmac_sha256("baton-handshake-v2", {secret});
  const std::string_view key = view(prk);
  const std::string initiator_finished_key = expand(key, "initiator finished", th);
  const std::string responder_finished_key = expand(key, "responder finished", th);
  return {.initiator_finished = hmac_sha256(initiator_finished_key, {th}),
          .responder_finished = hmac_sha256(responder_finished_key, {th}),
          .initiator_to_responder = expand(key, "initiator traffic", th),
          .responder_to_initiator = expand(key, "responder traffic", th)};
}

}  // namespace baton::security
