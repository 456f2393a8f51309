#include "transport/frame_seal.h"

#include <cstring>

#include "transport/errors.h"

namespace baton::transport {
namespace {

std::string_view sealed_part(std::span<const std::byte, frame_header_size> header) {
  return {reinterpret_cast<const char*>(header.data()), frame_sealed_bytes};
}

}  // namespace

void FrameSeal::protect(std::string_view send_key, std::string_view receive_key) {
  send_.emplace(send_key);
  receive_.emplace(receive_key);
}

void FrameSeal::seal(HeaderBytes& header) {
  if (!send_) return;
  const security::Mac mac = send_->next(sealed_part(header));
  std::memcpy(header.data() + frame_sealed_bytes, mac.data(), frame_header_size - frame_sealed_bytes);
}

std::error_code FrameSeal::open(std::span<const std::byte, frame_header_size> bytes, FrameHeader& out) {
  if (!receive_) return decode_header(bytes, out);
  security::Mac mac;
  try {
    mac = receive_->next(sealed_part(bytes));
  } catch (const std::exception&) {  // OpenSSL failed, or the sequence ran out
    return errc::frame_authentication_failed;
  }
  const std::string_view got(reinterpret_cast<const char*>(bytes.data()) + frame_sealed_bytes,
                             frame_header_size - frame_sealed_bytes);
  if (!security::equal_in_constant_time(got, security::view(mac).substr(0, got.size()))) {
    return errc::frame_authentication_failed;
  }
  return decode_fields(bytes, out);
}

}  // namespace baton::transport
