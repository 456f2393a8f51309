// Error codes of the transport: the expected network conditions a flow can end with.
//
// Every asynchronous operation in baton::transport reports these (or a std::errc /
// asio error from the operating system) as std::error_code values; nothing in a data
// path throws for a condition the network can cause. Use make_error_code(errc::...) or
// compare a std::error_code against an errc value directly.
#pragma once

#include <string>
#include <system_error>

namespace baton::transport {

enum class errc {
  bad_magic = 1,                // a frame does not start with the Baton magic: not our peer, or garbage
  unsupported_version,          // a frame from a protocol version this build does not speak
  header_checksum_mismatch,     // the frame header was garbled in transit
  payload_checksum_mismatch,    // a chunk's XXH3 does not match its payload: the chunk is dropped, never written
  range_checksum_mismatch,      // the whole-range checksum at the end of a flow does not match
  oversized_frame,              // a length field is above the configured cap
  truncated_frame,              // the peer closed the connection in the middle of a frame
  unexpected_frame,             // a well-formed frame that does not fit the flow (wrong kind, job, step, range)
  idle_timeout,                 // the peer said nothing (or stopped reading) within the configured time
  peer_closed,                  // the peer closed the connection between frames, before the flow ended
  rejected_by_peer,             // the peer ended the flow with an error of its own (see the report's detail)
  rejected_by_sink,             // the local sink refused a verified chunk (e.g. outside its region)
  connection_failed,            // an earlier error already ended this connection
  provider_unavailable,         // the requested libfabric provider is not on this machine
  fabric_error,                 // libfabric reported an error (see the report's detail)
  bad_address,                  // an address string could not be parsed
  authentication_failed,        // the peer did not prove the cluster secret, or is not the node expected
  frame_authentication_failed,  // a frame's seal does not match the session's key: forged, replayed or altered
  source_too_short,             // a source file ends before the range to send: it shrank after it was planned
};

const std::error_category& transport_category() noexcept;

inline std::error_code make_error_code(errc e) noexcept { return {static_cast<int>(e), transport_category()}; }

}  // namespace baton::transport

template <>
struct std::is_error_code_enum<baton::transport::errc> : std::true_type {};
