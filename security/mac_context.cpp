#include "security/mac_context.h"

#include "error/error.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

namespace baton::security {

void MacContext::Free::operator()(evp_mac_ctx_st* ctx) const noexcept { EVP_MAC_CTX_free(ctx); }

MacContext::MacContext(std::string_view key) {
  EVP_MAC* hmac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  if (hmac == nullptr) throw error::SystemError("OpenSSL has no HMAC");
  keyed_.reset(EVP_MAC_CTX_new(hmac));
  EVP_MAC_free(hmac);  // the context keeps its own reference
  char digest[] = "SHA256";
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                               OSSL_PARAM_construct_end()};
  if (!keyed_ ||
      EVP_MAC_init(keyed_.get(), reinterpret_cast<const unsigned char*>(key.data()), key.size(), params) != 1) {
    throw error::SystemError("cannot set up HMAC-SHA256");
  }
}

MacContext::~MacContext() = default;
MacContext::MacContext(MacContext&&) noexcept = default;
MacContext& MacContext::operator=(MacContext&&) noexcept = default;

Mac MacContext::compute(std::initializer_list<std::string_view> parts) {
  // Initialised again without a key, an HMAC context starts over with the key it holds
  // (OpenSSL 3's HMAC provider: HMAC_Init_ex from its keyed inner state), whatever a
  // previous compute() left in it.
  bool ok = EVP_MAC_init(keyed_.get(), nullptr, 0, nullptr) == 1;
  for (std::string_view part : parts) {
    ok = ok && EVP_MAC_update(keyed_.get(), reinterpret_cast<const unsigned char*>(part.data()), part.size()) == 1;
  }
  Mac mac{};
  std::size_t length = 0;
  ok = ok && EVP_MAC_final(keyed_.get(), mac.data(), &length, mac.size()) == 1 && length == mac.size();
  if (!ok) throw error::SystemError("HMAC-SHA256 failed");
  return mac;
}

}  // namespace baton::security
