#include "agent/data_plane.h"

#include "agent/peer_links.h"
#include "error/error.h"
#include "transport/errors.h"

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/steady_timer.hpp>

#include <algorithm>

namespace baton::agent {

static_assert(DataPlane::kept_idle > PeerLinks::idle_limit, "the sender closes an idle kept connection first");

namespace {

// How long one accept waits before the loop asks again; stop() ends it at once
// (Listener::close).
constexpr std::chrono::milliseconds accept_wait = std::chrono::hours(1);

// Where a connection comes from, for the per-address cap: the peer without its port
// ("127.0.0.1:40312" -> "127.0.0.1"); transports whose peers have no port count each peer
// on its own.
std::string source_address(const std::string& peer) {
  const auto colon = peer.rfind(':');
  return colon == std::string::npos ? peer : peer.substr(0, colon);
}

// A flow that ended on something only a forger, a broken peer or a stale sender causes,
// not on the network or the sender's normal close: said in the log. A flow the step
// runner took (`taken`) is reported to the coordinator with its step; one it refused is
// not reported anywhere else.
bool refusal_worth_saying(const transport::FlowReport& report, bool taken) {
  using transport::errc;
  for (const errc forged : {errc::frame_authentication_failed, errc::authentication_failed, errc::bad_magic,
                            errc::unsupported_version, errc::header_checksum_mismatch, errc::oversized_frame}) {
    if (report.error == forged) return true;
  }
  return !taken && report.error == errc::unexpected_frame;
}

}  // namespace

class DataPlane::Alive {
 public:
  explicit Alive(DataPlane& plane) : plane_(plane) { ++plane_.alive_; }
  ~Alive() {
    --plane_.alive_;
    plane_.ended_.notify();
  }
  Alive(const Alive&) = delete;
  Alive& operator=(const Alive&) = delete;

 private:
  DataPlane& plane_;
};

DataPlane::DataPlane(transport::Context& context, const std::string& address, transport::NodeIdentity self,
                     admission::PendingLimits pending)
    : context_(context), self_(std::move(self)), pending_(pending), stop_requested_(context.executor()),
      ended_(context.executor()) {
  error::Result<std::unique_ptr<transport::Listener>> listening = context.listen(address);
  if (listening.error) {
    throw error::SystemError("cannot listen for data at " + address + ": " + listening.error.message() + " " +
                             listening.detail);
  }
  listener_ = std::move(listening.value);
}

void DataPlane::route_to(const std::weak_ptr<StepRunner>& runner) {
  std::erase_if(routes_, [](const auto& route) { return route.second.expired(); });
  const std::shared_ptr<StepRunner> routed = runner.lock();
  if (!routed) routes_.clear();
  else routes_[routed->plan().job_number()] = runner;
}

void DataPlane::start() { asio::co_spawn(context_.executor(), accept_loop(), asio::detached); }

asio::awaitable<void> DataPlane::stop() {
  stopping_ = true;
  stop_requested_.notify();  // flows waiting for a release give up
  listener_->close();        // the accept loop's accept ends
  for (transport::Connection* connection : connections_) connection->fail(transport::errc::connection_failed);
  while (alive_ > 0) co_await ended_.wait();
}

asio::awaitable<void> DataPlane::accept_loop() {
  const Alive alive(*this);
  asio::steady_timer backoff(context_.executor());
  while (!stopping_) {
    error::Result<std::unique_ptr<transport::Connection>> accepted = co_await listener_->accept(accept_wait);
    if (stopping_) break;
    if (admission::descriptors_exhausted(accepted.error)) {
      // The connection stays queued in the kernel: accepting again at once would fail at
      // once, for ever, at full CPU. Wait, then try again (and never stop accepting).
      backoff.expires_after(admission::accept_backoff);
      co_await backoff.async_wait(transport::use_nothrow);
      continue;
    }
    if (accepted.error) continue;  // idle_timeout, or a peer that failed mid-connect
    asio::co_spawn(context_.executor(), serve(std::move(accepted.value)), asio::detached);
  }
}

asio::awaitable<void> DataPlane::serve(std::unique_ptr<transport::Connection> connection) {
  const Alive alive(*this);
  connections_.insert(connection.get());
  // Nothing is read from a sender but its handshake until it has proven the secret, and
  // until then a newer connection may take its place (closing it).
  transport::Connection* pending_connection = connection.get();
  admission::PendingConnections::Ticket pending =
      pending_.admit(source_address(connection->peer()),
                     [pending_connection] { pending_connection->fail(transport::errc::connection_failed); });
  const transport::Authentication sender =
      co_await transport::authenticate_as_receiver(*connection, self_, handshake_deadline);
  pending.release();
  // A connection closed before it said anything is a port check, not worth a line.
  if (!sender.ok() && !stopping_ && sender.error != transport::errc::peer_closed) {
    refusals_.write(log::Level::warning,
                    "data plane: refused a connection from " + connection->peer() + ": " + sender.describe());
  }
  // One connection carries one sender's flows, one after another, for as long as the
  // sender keeps it (agent/peer_links.h): its first flow comes right after the handshake,
  // a later one may come kept_idle later.
  for (bool first = true; sender.ok() && !stopping_; first = false) {
    std::function<void(const transport::FlowReport&)> finished;
    const transport::AsyncSinkResolver resolver = [&](const transport::FlowSpec& flow) {
      return resolve(flow, sender.value, finished);
    };
    const auto frame_timeout = context_.options().frame_timeout;
    const transport::FlowReport report = co_await transport::receive_flow(
        *connection, resolver, context_.pool(),
        transport::ReceiveOptions{.expected = {},
                                  .max_range = std::uint64_t{1} << 50,
                                  .frame_timeout = frame_timeout,
                                  .begin_timeout = first ? frame_timeout : std::max(frame_timeout, kept_idle)});
    if (finished) finished(report);
    if (!report.ok() && !stopping_ && refusal_worth_saying(report, static_cast<bool>(finished))) {
      refusals_.write(log::Level::warning, "data plane: refused from " + sender.value + ": " + report.describe());
    }
    if (!report.ok()) break;  // the sender closed its connection, or the flow failed
  }
  connections_.erase(connection.get());
}

asio::awaitable<transport::ResolvedSink> DataPlane::resolve(
    transport::FlowSpec flow, std::string sender, std::function<void(const transport::FlowReport&)>& finished) {
  using namespace asio::experimental::awaitable_operators;
  const auto route = routes_.find(flow.job);
  const std::shared_ptr<StepRunner> runner = route == routes_.end() ? nullptr : route->second.lock();
  if (!runner) {
    const bool any = std::ranges::any_of(routes_, [](const auto& r) { return !r.second.expired(); });
    co_return transport::ResolvedSink{
        nullptr,
        any ? "no step of job " + std::to_string(flow.job) + " step " + std::to_string(flow.step) + " is running here"
            : "this agent runs no job",
        nullptr};
  }
  if (stopping_) co_return transport::ResolvedSink{nullptr, "the agent is stopping", nullptr};
  // A flow that waits for its step's release gives up when the data plane stops.
  auto outcome = co_await (runner->resolve(flow, std::move(sender)) || stop_requested_.wait());
  if (outcome.index() == 1) co_return transport::ResolvedSink{nullptr, "the agent is stopping", nullptr};
  IncomingFlow incoming = std::get<0>(std::move(outcome));
  finished = std::move(incoming.finished);
  co_return incoming.resolved;
}

}  // namespace baton::agent
