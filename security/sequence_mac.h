// The MAC that seals each message of an authenticated session, one direction: HMAC-SHA256
// under that direction's traffic key over an implicit 64-bit sequence number and the
// message. The number is counted, never sent, so a message dropped, repeated, reordered
// or moved to the other direction (another key) fails its check.
#pragma once

#include "security/hmac.h"
#include "security/mac_context.h"

#include <cstdint>
#include <string_view>

namespace baton::security {

class SequenceMac {
 public:
  explicit SequenceMac(std::string_view traffic_key) : context_(traffic_key) {}

  // The MAC of the next message, given as one or two parts (numbers start at 0 and go
  // up by one per call).
  Mac next(std::string_view message, std::string_view more = {});
  std::uint64_t count() const noexcept { return sequence_; }

 private:
  MacContext context_;
  std::uint64_t sequence_ = 0;
};

}  // namespace baton::security
