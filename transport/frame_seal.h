// The seal on every frame header of one connection (frame.h, bytes 48..55): XXH3-64 of
// the header until the connection has authenticated (authenticate.h), then the first 8
// bytes of HMAC-SHA256 under the direction's session key over an implicit sequence number
// and the header. The header holds the payload's XXH3-64, so the MAC covers the payload
// through it: one HMAC per frame, not per byte (docs/security.md says what this does and
// does not promise).
//
// Decision: 8 bytes of MAC, as the header has room for. A forger without the key passes
// with probability 2^-64 per try, and the first failure ends the connection.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <system_error>

#include "security/sequence_mac.h"
#include "transport/frame.h"

namespace baton::transport {

class FrameSeal {
 public:
  // From now on, seal with `send_key` and accept only seals made with `receive_key`.
  void protect(std::string_view send_key, std::string_view receive_key);
  bool is_protected() const noexcept { return receive_.has_value(); }

  // Reseals an outgoing header made by encode_header (nothing to do before protect()).
  void seal(HeaderBytes& header);

  // Checks an incoming header's seal and decodes it. Each call consumes one sequence
  // number: call it once per received frame, in order.
  std::error_code open(std::span<const std::byte, frame_header_size> bytes, FrameHeader& out);

 private:
  std::optional<security::SequenceMac> send_;
  std::optional<security::SequenceMac> receive_;
};

}  // namespace baton::transport
