#include "protocol/auth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <stdexcept>

namespace baton::protocol {
namespace {

constexpr std::string_view kContext = "baton-auth-v1";

void append_field(std::string& out, std::string_view field) {
  const auto n = static_cast<std::uint32_t>(field.size());
  const char length[4] = {static_cast<char>(n >> 24), static_cast<char>(n >> 16), static_cast<char>(n >> 8),
                          static_cast<char>(n)};
  out.append(length, 4);  // length-prefixed: no two inputs share an encoding
  out.append(field);
}

}  // namespace

std::string make_nonce() {
  std::string nonce(kNonceBytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(nonce.data()), static_cast<int>(nonce.size())) != 1) {
    throw std::runtime_error("no random bytes from the system for an authentication nonce");
  }
  return nonce;
}

std::string prove(std::string_view secret, const ProofInput& input) {
  if (secret.size() < kMinSecretBytes) {
    throw std::invalid_argument("the cluster secret must hold at least " + std::to_string(kMinSecretBytes) + " bytes");
  }
  if (input.verifier_nonce.size() != kNonceBytes || input.prover_nonce.size() != kNonceBytes) {
    throw std::invalid_argument("authentication nonces must be " + std::to_string(kNonceBytes) + " bytes");
  }
  std::string message;
  for (std::string_view field : {kContext, input.role, input.node_id, input.verifier_nonce, input.prover_nonce}) {
    append_field(message, field);
  }
  std::string mac(EVP_MAX_MD_SIZE, '\0');
  unsigned int length = 0;
  if (!HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
            reinterpret_cast<const unsigned char*>(message.data()), message.size(),
            reinterpret_cast<unsigned char*>(mac.data()), &length)) {
    throw std::runtime_error("HMAC-SHA256 failed");
  }
  mac.resize(length);
  return mac;
}

bool verify(std::string_view secret, const ProofInput& input, std::string_view mac) {
  const std::string expected = prove(secret, input);
  return mac.size() == expected.size() && CRYPTO_memcmp(mac.data(), expected.data(), mac.size()) == 0;
}

}  // namespace baton::protocol
