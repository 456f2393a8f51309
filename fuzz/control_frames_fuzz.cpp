// The control plane's reading side: length-prefixed frames (protocol/frame.h) cut from a
// byte stream however it arrives, each payload decoded as an Envelope (envelope.h), and a
// Hello checked as the handshake checks it (handshake.cpp, security/key_schedule.h). The
// first byte picks the cap (bit 0: the handshake's) and how the rest is cut into reads.
// FrameError and ProtocolError are the documented outcomes of bad bytes.
#include <cstdlib>
#include <string>
#include <string_view>

#include "protocol/envelope.h"
#include "protocol/frame.h"
#include "security/key_schedule.h"

namespace {

using namespace baton;

void check_message(std::string_view payload) {
  protocol::Envelope envelope;
  try {
    envelope = protocol::decode(payload);
  } catch (const protocol::ProtocolError&) {
    return;
  }
  if (protocol::type_name(envelope) == "unknown") std::abort();  // decode lets only known types through
  if (protocol::decode(protocol::encode(envelope)).body_case() != envelope.body_case()) std::abort();
  if (envelope.body_case() != protocol::Envelope::kHello) return;
  const security::Hello hello{
      .role = envelope.hello().role(), .node_id = envelope.hello().node_id(), .nonce = envelope.hello().nonce()};
  if (security::hello_problem(hello, "agent")) return;
  // A hello the check lets through must key a session without error.
  const security::Hello mine = security::make_hello("coordinator", "coordinator");
  (void)security::derive_session_keys("fuzzing-secret-of-32-bytes-long!", "control", hello, mine);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t read_size = 1 + (data[0] >> 1);
  protocol::FrameDecoder decoder((data[0] & 1) ? protocol::kHandshakeMaxFrame : protocol::kDefaultMaxFrame);
  const std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::size_t consumed = 0;
  try {
    for (std::size_t at = 0; at < stream.size(); at += read_size) {
      decoder.feed(stream.substr(at, read_size));
      while (auto payload = decoder.next()) {
        consumed += protocol::kFrameHeaderBytes + payload->size();
        check_message(*payload);
      }
    }
  } catch (const protocol::FrameError&) {
    return 0;
  }
  if (consumed + decoder.pending() != stream.size()) std::abort();  // no byte lost or made up
  return 0;
}
