#include "transport/fabric/connection.h"

#include <cstring>
#include <optional>

#include <rdma/fi_tagged.h>

#include "error/error.h"
#include "transport/errors.h"

namespace baton::transport::fabric {
namespace {

// Gives `op` at least `size` bytes of its own (registered) memory and sets `descriptor`;
// a failed registration comes back as the operation's outcome.
std::optional<error::Status> own_memory(Endpoint& endpoint, Operation& op, std::size_t size, void*& descriptor) {
  try {
    descriptor = endpoint.heap_memory(op, size);
  } catch (const error::SystemError& error) {
    return error::Status{errc::fabric_error, error.what()};
  }
  return std::nullopt;
}

}  // namespace

asio::awaitable<error::Status> send_message(Endpoint& endpoint, std::unique_ptr<Operation>& op, fi_addr_t peer,
                                            std::uint64_t tag, std::span<const std::byte> first,
                                            std::span<const std::byte> second, Endpoint::time_point deadline) {
  const std::size_t total = first.size() + second.size();
  void* descriptor = nullptr;
  if (auto failed = own_memory(endpoint, *op, total, descriptor)) co_return std::move(*failed);
  std::byte* message = op->heap.data();
  if (!first.empty()) std::memcpy(message, first.data(), first.size());
  if (!second.empty()) std::memcpy(message + first.size(), second.data(), second.size());
  fid_ep* ep = endpoint.ep();
  void* context = &op->context;
  co_return co_await endpoint.execute(
      op, [=] { return fi_tsend(ep, message, total, descriptor, peer, tag, context); }, deadline);
}

asio::awaitable<error::Status> send_gathered(Endpoint& endpoint, std::unique_ptr<Operation>& op, const BufferPool& pool,
                                             fi_addr_t peer, std::uint64_t tag, std::span<const std::byte> header,
                                             std::span<const std::byte> payload, Endpoint::time_point deadline) {
  void* header_descriptor = nullptr;
  if (auto failed = own_memory(endpoint, *op, header.size(), header_descriptor)) co_return std::move(*failed);
  std::memcpy(op->heap.data(), header.data(), header.size());
  // fi_tsendv takes non-const pieces; libfabric only reads a send's memory.
  op->pieces = {iovec{op->heap.data(), header.size()}, iovec{const_cast<std::byte*>(payload.data()), payload.size()}};
  op->piece_descriptors = {header_descriptor, pool.registration().descriptor};
  fid_ep* ep = endpoint.ep();
  const iovec* pieces = op->pieces.data();
  void** descriptors = op->piece_descriptors.data();
  void* context = &op->context;
  co_return co_await endpoint.execute(
      op, [=] { return fi_tsendv(ep, pieces, descriptors, 2, peer, tag, context); }, deadline);
}

asio::awaitable<error::Status> receive_message(Endpoint& endpoint, std::unique_ptr<Operation>& op, fi_addr_t from,
                                               std::uint64_t tag, std::size_t capacity, Endpoint::time_point deadline) {
  void* descriptor = nullptr;
  if (auto failed = own_memory(endpoint, *op, capacity, descriptor)) co_return std::move(*failed);
  std::byte* memory = op->heap.data();
  fid_ep* ep = endpoint.ep();
  void* context = &op->context;
  co_return co_await endpoint.execute(
      op, [=] { return fi_trecv(ep, memory, capacity, descriptor, from, tag, 0, context); }, deadline);
}

ReceivedFrame parse_frame(std::span<std::byte> memory, std::size_t received, FrameSeal& seal) {
  ReceivedFrame frame;
  if (received < frame_header_size) {
    frame.error = errc::truncated_frame;
    return frame;
  }
  if ((frame.error = seal.open(memory.first<frame_header_size>(), frame.header))) return frame;
  if (frame.header.length != received - frame_header_size) {
    // A message is all or nothing: fewer bytes than announced means the sender cut it short.
    frame.error = frame.header.length > received - frame_header_size ? errc::truncated_frame : errc::unexpected_frame;
    return frame;
  }
  frame.payload = memory.subspan(frame_header_size, frame.header.length);
  return frame;
}

Connection::Connection(Endpoint& endpoint, BufferPool& pool, LinkOptions link)
    : endpoint_(endpoint), pool_(pool), link_(std::move(link)) {}

asio::awaitable<std::error_code> Connection::do_send(const HeaderBytes& header, std::span<const std::byte> payload,
                                                     std::chrono::milliseconds timeout) {
  auto op = staging_ ? std::move(staging_) : endpoint_.make_operation();
  op->done = false;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const bool from_pool = pool_.holds(payload) && endpoint_.send_iov_limit() >= 2;
  const InFlight in_flight(sending_, *op);
  // Two statements, not `?:`: GCC 12 destroys a co_await result in a conditional twice.
  error::Status outcome;
  if (from_pool) {
    outcome = co_await send_gathered(endpoint_, op, pool_, link_.peer, link_.send_tag, header, payload, deadline);
  } else {
    outcome = co_await send_message(endpoint_, op, link_.peer, link_.send_tag, header, payload, deadline);
  }
  staging_ = std::move(op);  // null if libfabric kept it: the next send stages afresh
  co_return outcome.error;
}

asio::awaitable<ReceivedFrame> Connection::do_receive(Buffer& into, std::chrono::milliseconds timeout) {
  auto op = endpoint_.make_operation();
  op->buffer = std::move(into);
  const std::span<std::byte> memory = op->buffer.bytes();
  void* descriptor = op->buffer.descriptor();
  fid_ep* ep = endpoint_.ep();
  void* context = &op->context;
  const std::uint64_t tag = link_.receive_tag;
  const InFlight in_flight(receiving_, *op);
  const auto outcome = co_await endpoint_.execute(
      op, [=] { return fi_trecv(ep, memory.data(), memory.size(), descriptor, FI_ADDR_UNSPEC, tag, 0, context); },
      std::chrono::steady_clock::now() + timeout);
  if (!op)
    co_return ReceivedFrame{.error = outcome.error, .header = {}, .payload = {}, .payload_checksum = std::nullopt};
  into = std::move(op->buffer);
  if (outcome.error)
    co_return ReceivedFrame{.error = outcome.error, .header = {}, .payload = {}, .payload_checksum = std::nullopt};
  co_return parse_frame(memory, op->length, seal());
}

asio::awaitable<ReceivedFrame> Connection::do_receive_control(std::chrono::milliseconds timeout) {
  auto op = control_ ? std::move(control_) : endpoint_.make_operation();
  op->done = false;
  // libfabric 1.17's shm provider never returns from fi_trecv when the message it matches is
  // longer than the buffer posted, so on shm a control receive can take a whole frame (a
  // data frame where a control frame was due is then refused as unexpected, not hung on).
  const std::size_t capacity =
      endpoint_.provider() == "shm" ? pool_.buffer_size() : frame_header_size + max_reject_reason;
  const InFlight in_flight(receiving_control_, *op);
  const auto outcome = co_await receive_message(endpoint_, op, FI_ADDR_UNSPEC, link_.receive_tag, capacity,
                                                std::chrono::steady_clock::now() + timeout);
  if (!op)
    co_return ReceivedFrame{.error = outcome.error, .header = {}, .payload = {}, .payload_checksum = std::nullopt};
  control_ = std::move(op);
  if (outcome.error)
    co_return ReceivedFrame{.error = outcome.error, .header = {}, .payload = {}, .payload_checksum = std::nullopt};
  ReceivedFrame frame = parse_frame(control_->heap, control_->length, seal());
  if (!frame.error && frame.header.length > max_reject_reason) frame.error = errc::oversized_frame;
  co_return frame;
}

void Connection::close() noexcept {
  for (Operation* op : {sending_, receiving_, receiving_control_}) {
    if (op != nullptr) Endpoint::abandon(*op);
  }
}

}  // namespace baton::transport::fabric
