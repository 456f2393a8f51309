// Data-plane frame headers from raw bytes (transport/frame.h), through a connection's
// seal before and after authentication (frame_seal.h), and a reject frame's reason text
// (flow_frames.h). Every error is a std::error_code; what decodes must re-encode to the
// same bytes, and a header sealed with one side's key must open with the other's.
#include <algorithm>
#include <cstdlib>
#include <span>

#include "transport/flow_frames.h"
#include "transport/frame.h"
#include "transport/frame_seal.h"

namespace {

using namespace baton::transport;

bool same_fields(const FrameHeader& a, const FrameHeader& b) {
  return a.kind == b.kind && a.job == b.job && a.step == b.step && a.length == b.length && a.offset == b.offset &&
         a.range_end == b.range_end && a.checksum == b.checksum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));

  const std::string reason = detail::reject_reason(bytes);
  if (reason.size() != std::min<std::size_t>(size, max_reject_reason)) std::abort();
  if (!std::all_of(reason.begin(), reason.end(), [](char c) { return c >= 0x20 && c < 0x7F; })) std::abort();

  if (size < frame_header_size) return 0;
  const std::span<const std::byte, frame_header_size> header = bytes.first<frame_header_size>();

  FrameHeader decoded;
  const std::error_code error = decode_header(header, decoded);
  if (!error) {
    const HeaderBytes again = encode_header(decoded);
    if (!std::equal(again.begin(), again.end(), header.begin())) std::abort();
  }
  FrameHeader unsealed;
  FrameSeal plain;
  if (plain.open(header, unsealed) != error) std::abort();  // an unprotected seal is decode_header
  if (!error && !same_fields(decoded, unsealed)) std::abort();

  FrameHeader fields;
  if (decode_fields(header, fields)) return 0;
  // Protected: a header sealed by the sender opens at the receiver, and an altered one does not.
  FrameSeal sender, receiver;
  sender.protect("fuzz: sender's key", "fuzz: receiver's key");
  receiver.protect("fuzz: receiver's key", "fuzz: sender's key");
  HeaderBytes sealed = encode_header(fields);
  sender.seal(sealed);
  FrameHeader opened;
  if (receiver.open(sealed, opened) || !same_fields(fields, opened)) std::abort();
  HeaderBytes altered = encode_header(fields);
  sender.seal(altered);
  altered[size % frame_header_size] ^= std::byte{1};  // one bit, in the fields or in the seal
  if (!receiver.open(altered, opened)) std::abort();
  if (!receiver.open(header, opened)) std::abort();  // the raw bytes were never sealed with the key
  return 0;
}
