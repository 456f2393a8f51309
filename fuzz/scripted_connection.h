// A transport::Connection that plays frames scripted by fuzzed bytes and records what the
// code under test sends: the flow receiver and the data-plane handshake run on it as on TCP.
//
// Script, per frame: one byte of fix-ups, the 48 header bytes a seal covers (frame.h),
// then the payload (as many bytes as the header's length field says; fewer left is a
// truncated frame). The connection seals the header itself and decodes it through the
// real FrameSeal, as tcp::Connection does. Fix-ups let the fuzzer send what it cannot
// compute: bit 0 sets the header's checksum to the payload's XXH3-64, and the target's
// `fix` hook handles the rest (a range digest, a handshake proof).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "transport/connection.h"

namespace baton::fuzz {

struct SentFrame {
  transport::FrameHeader header;
  std::string payload;
};

class ScriptedConnection final : public transport::Connection {
 public:
  // Called on every decoded frame with its fix-up byte, before the code under test sees it.
  using Fix = std::function<void(std::uint8_t fixups, transport::FrameHeader& header, std::span<std::byte> payload)>;

  ScriptedConnection(std::span<const std::byte> script, Fix fix) : rest_(script), fix_(std::move(fix)) {}

  std::string peer() const override { return "scripted peer"; }
  const std::vector<SentFrame>& sent() const noexcept { return sent_; }
  bool closed() const noexcept { return closed_; }

 protected:
  asio::awaitable<std::error_code> do_send(const transport::HeaderBytes& header, std::span<const std::byte> payload,
                                           std::chrono::milliseconds timeout) override;
  asio::awaitable<transport::ReceivedFrame> do_receive(transport::Buffer& into,
                                                       std::chrono::milliseconds timeout) override;
  asio::awaitable<transport::ReceivedFrame> do_receive_control(std::chrono::milliseconds timeout) override;
  void close() noexcept override { closed_ = true; }

 private:
  transport::ReceivedFrame next_frame(std::span<std::byte> into);

  std::span<const std::byte> rest_;
  Fix fix_;
  std::vector<SentFrame> sent_;
  std::array<std::byte, transport::frame_header_size + transport::max_reject_reason> control_{};
  bool closed_ = false;
};

}  // namespace baton::fuzz
