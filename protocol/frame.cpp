#include "protocol/frame.h"

namespace baton::protocol {
namespace {

std::uint32_t read_length(const char* p) {
  const auto b = [p](int i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(p[i])); };
  return (b(0) << 24) | (b(1) << 16) | (b(2) << 8) | b(3);
}

}  // namespace

void append_frame(std::string& out, std::string_view payload, std::uint32_t max_frame) {
  if (payload.size() > max_frame) {
    throw FrameError("frame of " + std::to_string(payload.size()) + " bytes exceeds the limit of " +
                     std::to_string(max_frame));
  }
  const auto n = static_cast<std::uint32_t>(payload.size());
  const char header[kFrameHeaderBytes] = {static_cast<char>(n >> 24), static_cast<char>(n >> 16),
                                          static_cast<char>(n >> 8), static_cast<char>(n)};
  out.append(header, kFrameHeaderBytes);
  out.append(payload);
}

void FrameDecoder::set_max_frame(std::uint32_t max_frame) {
  max_frame_ = max_frame;
  check_header();
}

void FrameDecoder::feed(std::string_view bytes) {
  if (start_ > 0 && start_ >= buffer_.size() / 2) {  // drop consumed bytes now and then
    buffer_.erase(0, start_);
    start_ = 0;
  }
  buffer_.append(bytes);
  check_header();
}

void FrameDecoder::check_header() {
  if (pending() < kFrameHeaderBytes) return;
  const std::uint32_t n = read_length(buffer_.data() + start_);
  if (n > max_frame_) {
    throw FrameError("peer announced a frame of " + std::to_string(n) + " bytes, above the limit of " +
                     std::to_string(max_frame_));
  }
}

std::optional<std::string> FrameDecoder::next() {
  if (pending() < kFrameHeaderBytes) return std::nullopt;
  const std::uint32_t n = read_length(buffer_.data() + start_);
  if (pending() - kFrameHeaderBytes < n) return std::nullopt;
  std::string payload = buffer_.substr(start_ + kFrameHeaderBytes, n);
  start_ += kFrameHeaderBytes + n;
  check_header();
  return payload;
}

}  // namespace baton::protocol
