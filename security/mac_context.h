// An HMAC-SHA256 key set up once (OpenSSL's EVP_MAC), then used for any number of
// messages: each compute() starts the one context over from its keyed state, so a
// per-frame MAC costs the message's hashing, not the key's two extra blocks nor a context
// made and freed per message. One thread at a time.
#pragma once

#include "security/hmac.h"

#include <initializer_list>
#include <memory>
#include <string_view>

struct evp_mac_ctx_st;

namespace baton::security {

class MacContext {
 public:
  explicit MacContext(std::string_view key);
  ~MacContext();
  MacContext(MacContext&&) noexcept;
  MacContext& operator=(MacContext&&) noexcept;

  // HMAC-SHA256(key, parts[0] || parts[1] || ...). Throws error::SystemError if OpenSSL fails.
  Mac compute(std::initializer_list<std::string_view> parts);

 private:
  struct Free {
    void operator()(evp_mac_ctx_st* ctx) const noexcept;
  };
  std::unique_ptr<evp_mac_ctx_st, Free> keyed_;
};

}  // namespace baton::security
