#include "agent/data_plane.h"

#include "transport/errors.h"

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/steady_timer.hpp>

#include <stdexcept>

namespace baton::agent {
namespace {

// Where a connection comes from, for the per-address cap: the peer without its port
// ("127.0.0.1:40312" -> "127.0.0.1"); transports whose peers have no port count each peer
// on its own.
std::string source_address(const std::string& peer) {
  const auto colon = peer.rfind(':');
  return colon == std::string::npos ? peer : peer.substr(0, colon);
}

}  // namespace

DataPlane::DataPlane(transport::Context& context, const std::string& address, transport::NodeIdentity self,
                     admission::PendingLimits pending)
    : context_(context), self_(std::move(self)), pending_(pending) {
  transport::Result<std::unique_ptr<transport::Listener>> listening = context.listen(address);
  if (listening.error) {
    throw std::runtime_error("cannot listen for data at " + address + ": " + listening.error.message() + " " +
                             listening.detail);
  }
  listener_ = std::move(listening.value);
}

DataPlane::~DataPlane() { stop(); }

void DataPlane::start() {
  *running_ = true;
  asio::co_spawn(context_.executor(), accept_loop(running_), asio::detached);
}

transport::Task<void> DataPlane::accept_loop(std::shared_ptr<bool> running) {
  // Accept with a short timeout so that stop() is noticed within it.
  asio::steady_timer backoff(context_.executor());
  while (*running) {
    transport::Result<std::unique_ptr<transport::Connection>> accepted = co_await listener_->accept(std::chrono::milliseconds(200));
    if (!*running) break;
    if (admission::descriptors_exhausted(accepted.error)) {
      // The connection stays queued in the kernel: accepting again at once would fail at
      // once, for ever, at full CPU. Wait, then try again (and never stop accepting).
      backoff.expires_after(admission::accept_backoff);
      co_await backoff.async_wait(transport::use_nothrow);
      continue;
    }
    if (accepted.error) continue;  // idle_timeout, or a peer that failed mid-connect
    asio::co_spawn(context_.executor(), serve(std::move(accepted.value), running), asio::detached);
  }
}

transport::Task<void> DataPlane::serve(std::unique_ptr<transport::Connection> connection,
                                       std::shared_ptr<bool> running) {
  // Nothing is read from a sender but its handshake until it has proven the secret, and
  // until then a newer connection may take its place (closing it).
  transport::Connection* pending_connection = connection.get();
  admission::PendingConnections::Ticket pending =
      pending_.admit(source_address(connection->peer()),
                     [pending_connection] { pending_connection->fail(transport::errc::connection_failed); });
  const transport::Authentication sender =
      co_await transport::authenticate_as_receiver(*connection, self_, handshake_deadline);
  pending.release();
  if (!sender.ok()) co_return;
  // One connection carries one sender's chunks of a step, one flow after another.
  while (*running) {
    std::function<void(const transport::FlowReport&)> finished;
    auto resolve = [&](const transport::FlowSpec& flow) -> transport::ResolvedSink {
      if (runner_ == nullptr) return {nullptr, "this agent runs no job"};
      IncomingFlow incoming = runner_->resolve(flow, sender.value);
      finished = std::move(incoming.finished);
      return incoming.resolved;
    };
    const transport::FlowReport report = co_await transport::receive_flow(
        *connection, resolve, context_.pool(),
        transport::ReceiveOptions{
            .expected = {}, .max_range = std::uint64_t{1} << 50, .frame_timeout = context_.options().frame_timeout});
    if (finished) finished(report);
    if (!report.ok()) break;  // the sender closed after its last chunk, or the flow failed
  }
}

}  // namespace baton::agent
