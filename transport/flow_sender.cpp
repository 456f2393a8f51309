#include <algorithm>
#include <string>

#include "transport/errors.h"
#include "transport/flow.h"
#include "transport/flow_frames.h"
#include "transport/pacing.h"

namespace baton::transport {
namespace {

std::string chunk_range(std::uint64_t offset, std::uint64_t length) {
  return "[" + std::to_string(offset) + ", " + std::to_string(offset + length) + ")";
}

FlowReport failed(FlowReport report, Connection& connection, std::error_code error, std::string detail) {
  connection.fail(error);
  if (!connection.stall_diagnosis().empty()) detail += "; " + connection.stall_diagnosis();
  report.error = error;
  report.detail = std::move(detail);
  return report;
}

// Checks the receiver's answer to our end frame.
FlowReport judge_reply(FlowReport report, Connection& connection, const ReceivedFrame& reply, std::uint64_t digest) {
  const FlowSpec& flow = report.flow;
  const FrameHeader& h = reply.header;
  if (h.kind == FrameKind::reject) {
    const std::uint64_t verified = h.offset >= flow.offset && h.offset <= flow.end() ? h.offset - flow.offset : 0;
    report.bytes_verified = verified;
    return failed(std::move(report), connection, errc::rejected_by_peer, detail::reject_reason(reply.payload));
  }
  if (h.kind != FrameKind::ack || h.job != flow.job || h.step != flow.step || h.offset != flow.end()) {
    return failed(std::move(report), connection, errc::unexpected_frame,
                  std::string("expected ack, got ") + to_string(h.kind) + " for job " + std::to_string(h.job) +
                      " step " + std::to_string(h.step) + " at " + std::to_string(h.offset));
  }
  if (h.checksum != digest) {
    return failed(std::move(report), connection, errc::range_checksum_mismatch, "receiver's range checksum differs");
  }
  report.bytes_verified = flow.length;
  report.checksum = digest;
  return report;
}

}  // namespace

asio::awaitable<FlowReport> send_flow(Connection& connection, FlowSpec flow, const Source& source, SteadyPacer& pacer,
                                      BufferPool& pool, SendOptions options) {
  FlowReport report{
      .error = {}, .peer = connection.peer(), .flow = flow, .bytes_verified = 0, .checksum = 0, .detail = {}};
  if (flow.offset > source.size() || flow.length > source.size() - flow.offset) {
    report.error = std::make_error_code(std::errc::invalid_argument);
    report.detail = "range outside the source (" + std::to_string(source.size()) + " bytes)";
    co_return report;
  }
  // A paced flow takes a quarter of the burst at a time, so a wake-up that comes up to
  // three quarters of a burst late still finds its tokens kept, not lost to a full bucket.
  const std::uint64_t piece = pacer.paced() ? paced_piece(pacer.max_piece()) : pacer.max_piece();
  const std::uint64_t chunk =
      std::min({options.max_chunk, piece, static_cast<std::uint64_t>(pool.buffer_size() - frame_header_size)});
  if (chunk == 0) {
    report.error = std::make_error_code(std::errc::invalid_argument);
    report.detail = "chunk size 0 (max_chunk or pool buffer too small)";
    co_return report;
  }

  if (auto error =
          co_await connection.send_frame(encode_header(detail::begin_frame(flow)), {}, options.frame_timeout)) {
    co_return failed(std::move(report), connection, error, "sending begin");
  }

  detail::RangeDigest digest;
  for (std::uint64_t at = flow.offset; at < flow.end();) {
    const std::size_t n = static_cast<std::size_t>(std::min(chunk, flow.end() - at));
    co_await acquire_paced(pacer, n);
    Buffer scratch;
    std::span<const std::byte> payload;
    if (const auto view = source.view(at, n)) {
      payload = *view;
    } else {
      scratch = co_await pool.acquire();
      const auto area = scratch.bytes().subspan(frame_header_size, n);
      if (const auto error = source.read(at, area)) {
        const std::string why = "cannot read source " + chunk_range(at, n) + ": " + error.message();
        co_await detail::send_reject(connection, flow, flow.offset, why, options.frame_timeout);
        co_return failed(std::move(report), connection, error, why);
      }
      payload = area;
    }
    const FrameHeader header = detail::data_frame(flow, at, payload);
    digest.add(at, n, header.checksum);
    if (auto error = co_await connection.send_frame(encode_header(header), payload, options.frame_timeout)) {
      co_return failed(std::move(report), connection, error, "sending chunk " + chunk_range(at, n));
    }
    at += n;
  }

  if (auto error = co_await connection.send_frame(encode_header(detail::end_frame(flow, digest.value())), {},
                                                  options.frame_timeout)) {
    co_return failed(std::move(report), connection, error, "sending end");
  }
  const ReceivedFrame reply = co_await connection.receive_control(options.frame_timeout);
  if (reply.error) co_return failed(std::move(report), connection, reply.error, "waiting for the receiver's ack");
  co_return judge_reply(std::move(report), connection, reply, digest.value());
}

}  // namespace baton::transport
