#include <string>

#include "transport/errors.h"
#include "transport/flow.h"
#include "transport/flow_frames.h"
#include "transport/pacing.h"

namespace baton::transport {
namespace {

// Appended piece by piece: GCC 12's "literal" + std::string&& at -O3 warns -Wrestrict
// (a false positive, GCC bug 105329).
std::string range_text(std::uint64_t begin, std::uint64_t end) {
  std::string text = "[";
  text += std::to_string(begin);
  text += ", ";
  text += std::to_string(end);
  text += ")";
  return text;
}

// What a receiver found wrong with a frame: an error and the words for it.
struct Problem {
  std::error_code error;
  std::string detail;
  explicit operator bool() const noexcept { return static_cast<bool>(error); }
};

Problem check_begin(const FrameHeader& h, const ReceiveOptions& options) {
  if (h.kind != FrameKind::begin)
    return {errc::unexpected_frame, std::string("expected begin, got ") + to_string(h.kind)};
  if (h.length != 0)
    return {errc::unexpected_frame, "begin frame with a payload of " + std::to_string(h.length) + " bytes"};
  if (h.range_end < h.offset)
    return {errc::unexpected_frame, "begin range " + range_text(h.offset, h.range_end) + " ends before it starts"};
  if (h.range_end - h.offset > options.max_range) {
    return {errc::oversized_frame, "range of " + std::to_string(h.range_end - h.offset) + " bytes above the cap of " +
                                       std::to_string(options.max_range)};
  }
  const FlowSpec announced{
      .job = h.job, .step = h.step, .offset = h.offset, .length = h.range_end - h.offset, .release = h.checksum};
  if (options.expected && *options.expected != announced) {
    const FlowSpec& e = *options.expected;
    return {errc::unexpected_frame, "begin for job " + std::to_string(h.job) + " step " + std::to_string(h.step) + " " +
                                        range_text(h.offset, h.range_end) + ", expected job " + std::to_string(e.job) +
                                        " step " + std::to_string(e.step) + " " + range_text(e.offset, e.end())};
  }
  return {};
}

Problem check_in_flow(const FrameHeader& h, const FlowSpec& flow) {
  if (h.job != flow.job || h.step != flow.step || h.range_end != flow.end()) {
    return {errc::unexpected_frame, std::string(to_string(h.kind)) + " frame for job " + std::to_string(h.job) +
                                        " step " + std::to_string(h.step) + " ending at " +
                                        std::to_string(h.range_end)};
  }
  return {};
}

Problem check_data(const FrameHeader& h, const ReceivedFrame& frame, const FlowSpec& flow, std::uint64_t next) {
  if (h.length == 0 || h.offset != next || h.length > flow.end() - next) {
    return {errc::unexpected_frame, "chunk " + range_text(h.offset, h.offset + h.length) + " where the chunk at " +
                                        std::to_string(next) + " (range end " + std::to_string(flow.end()) +
                                        ") was due"};
  }
  const std::uint64_t checksum = frame.payload_checksum ? *frame.payload_checksum : xxh3_64(frame.payload);
  if (checksum != h.checksum) {
    return {errc::payload_checksum_mismatch, "chunk " + range_text(h.offset, h.offset + h.length)};
  }
  return {};
}

}  // namespace

asio::awaitable<FlowReport> receive_flow(Connection& connection, Sink& sink, BufferPool& pool, ReceiveOptions options) {
  co_return co_await receive_flow(
      connection,
      [&sink](const FlowSpec&) {
        return ResolvedSink{&sink, {}, nullptr};
      },
      pool, std::move(options));
}

namespace {

asio::awaitable<ResolvedSink> at_once(ResolvedSink resolved) { co_return resolved; }

}  // namespace

asio::awaitable<FlowReport> receive_flow(Connection& connection, SinkResolver resolve, BufferPool& pool,
                                         ReceiveOptions options) {
  co_return co_await receive_flow(
      connection, AsyncSinkResolver([resolve](const FlowSpec& announced) { return at_once(resolve(announced)); }), pool,
      std::move(options));
}

asio::awaitable<FlowReport> receive_flow(Connection& connection, AsyncSinkResolver resolve, BufferPool& pool,
                                         ReceiveOptions options) {
  Sink* sink = nullptr;
  SteadyPacer* pacer = nullptr;
  FlowReport report{
      .error = {}, .peer = connection.peer(), .flow = {}, .bytes_verified = 0, .checksum = 0, .detail = {}};
  bool begun = false;
  std::uint64_t next = 0;
  detail::RangeDigest digest;
  Problem problem;

  for (;;) {
    Buffer buffer;
    ReceivedFrame frame;
    if (begun) {
      buffer = co_await pool.acquire();
      frame = co_await connection.receive_frame(buffer, options.frame_timeout);
    } else {
      frame = co_await connection.receive_control(options.begin_timeout.value_or(options.frame_timeout));
    }
    if (frame.error) {
      report.error = frame.error;
      if (begun) {
        report.detail = "waiting for the frame at offset " + std::to_string(next);
      } else if (frame.error == errc::oversized_frame) {
        // A frame too long for a begin frame (the connection's own memory holds a header
        // and a reject's reason): whatever it is, it is not the begin frame due.
        report.error = errc::unexpected_frame;
        report.detail = std::string("expected begin, got ") + to_string(frame.header.kind) + " with a payload of " +
                        std::to_string(frame.header.length) + " bytes";
      } else {
        report.detail = "waiting for the begin frame (a peer that connects and says nothing ends here)";
      }
      if (!connection.stall_diagnosis().empty()) report.detail += "; " + connection.stall_diagnosis();
      co_return report;
    }
    const FrameHeader& h = frame.header;

    if (!begun) {
      if (h.kind == FrameKind::begin && h.range_end >= h.offset) {
        report.flow = {
            .job = h.job, .step = h.step, .offset = h.offset, .length = h.range_end - h.offset, .release = h.checksum};
      }
      if ((problem = check_begin(h, options))) break;
      ResolvedSink resolved = co_await resolve(report.flow);
      if (resolved.sink == nullptr) {
        problem = {errc::unexpected_frame, std::move(resolved.refusal)};
        break;
      }
      sink = resolved.sink;
      pacer = resolved.pacer;
      next = h.offset;
      begun = true;
      continue;
    }
    if ((problem = check_in_flow(h, report.flow))) break;

    if (h.kind == FrameKind::data) {
      if ((problem = check_data(h, frame, report.flow, next))) break;
      if (const auto error = sink->write(h.offset, frame.payload)) {
        problem = {errc::rejected_by_sink,
                   "chunk " + range_text(h.offset, h.offset + h.length) + ": " + error.message()};
        break;
      }
      digest.add(h.offset, h.length, h.checksum);
      next += h.length;
      report.bytes_verified = next - report.flow.offset;
      buffer = {};  // back to the pool while the pacer waits
      if (pacer != nullptr) co_await acquire_paced(*pacer, h.length);
    } else if (h.kind == FrameKind::end) {
      if (h.offset != report.flow.end() || next != report.flow.end()) {
        problem = {errc::unexpected_frame, "end after " + std::to_string(next - report.flow.offset) + " of " +
                                               std::to_string(report.flow.length) + " bytes"};
        break;
      }
      if (h.checksum != digest.value()) {
        problem = {errc::range_checksum_mismatch, "sender's range checksum differs"};
        break;
      }
      if (auto error = co_await connection.send_frame(encode_header(detail::ack_frame(report.flow, digest.value())), {},
                                                      options.frame_timeout)) {
        report.error = error;
        report.detail = "sending the ack";
        co_return report;
      }
      report.checksum = digest.value();
      co_return report;
    } else if (h.kind == FrameKind::reject) {
      connection.fail(errc::rejected_by_peer);
      report.error = errc::rejected_by_peer;
      report.detail = detail::reject_reason(frame.payload);
      co_return report;
    } else {
      problem = {errc::unexpected_frame,
                 std::string("unexpected ") + to_string(h.kind) + " frame in the middle of a flow"};
      break;
    }
  }

  co_await detail::send_reject(connection, report.flow, next, problem.error.message() + ": " + problem.detail,
                               options.frame_timeout);
  connection.fail(problem.error);
  report.error = problem.error;
  report.detail = std::move(problem.detail);
  co_return report;
}

}  // namespace baton::transport
