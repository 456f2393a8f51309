// The data-plane flow receiver (transport/flow_receiver.cpp, flow_frames.h) on frames a
// peer scripted (scripted_connection.h). Fix-up bit 1 sets an end frame's checksum to the
// range digest of the data frames delivered so far. Whatever arrives, the receiver must
// end with a report, write only verified bytes inside the announced range, in order, and
// succeed only with every byte of the range written.
#include <asio/co_spawn.hpp>
#include <asio/io_context.hpp>

#include <cstdlib>
#include <optional>

#include "fuzz/scripted_connection.h"
#include "transport/buffer.h"
#include "transport/errors.h"
#include "transport/flow.h"
#include "transport/flow_frames.h"

namespace {

using namespace baton;

class CheckingSink final : public transport::Sink {
 public:
  std::error_code write(std::uint64_t offset, std::span<const std::byte> bytes) override {
    if (offset != written_end || bytes.empty()) std::abort();  // in order, no gaps, no empty chunks
    written_end = offset + bytes.size();
    return {};
  }
  std::uint64_t written_end = 0;
};

// The receiver as a coroutine of its own (GCC 12 emits one symbol twice for a coroutine
// lambda beside another lambda in the same function).
asio::awaitable<void> receive(transport::Connection& connection, CheckingSink& sink, transport::BufferPool& pool,
                              std::optional<transport::FlowReport>& report) {
  // The sink expects the first write at the flow's offset: it learns it from the begin frame.
  report = co_await transport::receive_flow(
      connection,
      [&sink](const transport::FlowSpec& announced) {
        sink.written_end = announced.offset;
        return transport::ResolvedSink{&sink, {}, nullptr};
      },
      pool,
      transport::ReceiveOptions{.expected = std::nullopt,
                                .max_range = 1 << 20,
                                .frame_timeout = std::chrono::milliseconds(1000),
                                .begin_timeout = std::nullopt});
}

void rethrow(std::exception_ptr error) {
  if (error) std::rethrow_exception(error);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  transport::detail::RangeDigest delivered;
  fuzz::ScriptedConnection connection(
      std::as_bytes(std::span(data, size)),
      [&delivered](std::uint8_t fixups, transport::FrameHeader& header, std::span<std::byte> payload) {
        if (header.kind == transport::FrameKind::data) delivered.add(header.offset, payload.size(), header.checksum);
        if ((fixups & 2) && header.kind == transport::FrameKind::end) header.checksum = delivered.value();
      });
  asio::io_context io;
  transport::BufferPool pool(io.get_executor(), {.buffer_count = 2, .buffer_size = 1024});
  CheckingSink sink;
  std::optional<transport::FlowReport> report;
  asio::co_spawn(io, receive(connection, sink, pool, report), rethrow);
  io.run();
  if (!report) std::abort();  // the receiver never finished
  if (report->ok()) {
    if (sink.written_end != report->flow.end() || report->bytes_verified != report->flow.length) std::abort();
    if (report->checksum != delivered.value()) std::abort();
  } else if (!connection.closed()) {
    std::abort();  // a failed flow leaves the connection closed
  }
  return 0;
}
