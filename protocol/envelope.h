// Envelopes: one protobuf message per frame, with the protocol version checked first.
#pragma once

#include "error/error.h"
#include "protocol/baton.pb.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace baton::protocol {

// 2: JobStatus.state an enum, StepRelease.timeout_ms. 3: collectives (Plan.kind, dataflow
// tasks; an agent of version 2 would take such a plan for an empty one), StepProgress,
// ObjectQuery/ObjectAnswer, Register.combine_speeds.
inline constexpr std::uint32_t kProtocolVersion = 3;

// A message this build cannot accept: its text says why, for a Refusal and the log.
class ProtocolError : public error::InvalidInput {
 public:
  using error::InvalidInput::InvalidInput;
};

// Serializes `envelope` with the version set to kProtocolVersion.
std::string encode(Envelope envelope);

// Parses a frame's payload. Throws ProtocolError for bytes that are not an Envelope, a
// version other than kProtocolVersion, or a message type this build does not know.
Envelope decode(std::string_view payload);

// "hello", "plan", ... for logs and refusals.
std::string_view type_name(const Envelope& envelope);

}  // namespace baton::protocol
