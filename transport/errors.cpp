#include "transport/errors.h"

namespace baton::transport {
namespace {

class TransportCategory final : public std::error_category {
 public:
  const char* name() const noexcept override { return "baton.transport"; }

  std::string message(int value) const override {
    switch (static_cast<errc>(value)) {
      case errc::bad_magic: return "frame does not start with the Baton magic (not a Baton peer, or garbage)";
      case errc::unsupported_version: return "frame uses an unsupported protocol version";
      case errc::header_checksum_mismatch: return "frame header checksum mismatch (header garbled in transit)";
      case errc::payload_checksum_mismatch: return "chunk checksum mismatch (chunk dropped, not written)";
      case errc::range_checksum_mismatch: return "whole-range checksum mismatch";
      case errc::oversized_frame: return "frame length above the configured cap";
      case errc::truncated_frame: return "connection closed in the middle of a frame";
      case errc::unexpected_frame: return "frame does not fit the flow (kind, job, step or range)";
      case errc::idle_timeout: return "peer silent for longer than the configured timeout";
      case errc::peer_closed: return "peer closed the connection before the flow ended";
      case errc::rejected_by_peer: return "peer ended the flow with an error";
      case errc::rejected_by_sink: return "sink refused a verified chunk";
      case errc::connection_failed: return "connection already failed earlier";
      case errc::provider_unavailable: return "requested libfabric provider is not available";
      case errc::fabric_error: return "libfabric error";
      case errc::bad_address: return "address could not be parsed";
      case errc::authentication_failed: return "peer failed authentication";
      case errc::frame_authentication_failed: return "frame failed authentication (forged, replayed or altered)";
      case errc::source_too_short: return "the source file ends before this range (truncated since it was planned)";
    }
    return "unknown transport error";
  }
};

}  // namespace

const std::error_category& transport_category() noexcept {
  static const TransportCategory category;
  return category;
}

}  // namespace baton::transport
