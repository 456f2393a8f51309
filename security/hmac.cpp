#include "security/hmac.h"

#include "security/mac_context.h"

#include <openssl/crypto.h>

namespace baton::security {

Mac hmac_sha256(std::string_view key, std::initializer_list<std::string_view> parts) {
  return MacContext(key).compute(parts);
}

bool equal_in_constant_time(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace baton::security
