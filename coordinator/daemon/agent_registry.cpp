#include "coordinator/daemon/agent_registry.h"

#include "error/error.h"
#include "error/refusal.h"

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace baton::coordinator {
namespace {

// A registration's combine speeds into `out`: nothing when each names a known dtype and op,
// at most once, with a finite speed > 0; else what is wrong.
std::optional<error::Refusal> read_combine_speeds(
    const protocol::Register& reg, std::map<std::pair<protocol::DataType, protocol::ReduceOp>, double>& out) {
  for (const protocol::CombineSpeed& c : reg.combine_speeds()) {
    const std::string which = "combine speed of dtype " + std::to_string(c.dtype()) + ", op " + std::to_string(c.op());
    if (c.dtype() == protocol::DTYPE_UNSPECIFIED || !protocol::DataType_IsValid(c.dtype()) ||
        c.op() == protocol::OP_UNSPECIFIED || !protocol::ReduceOp_IsValid(c.op())) {
      return which + ": unknown dtype or op";
    }
    if (!(std::isfinite(c.bytes_per_second()) && c.bytes_per_second() > 0)) return which + ": must be > 0 bytes/s";
    if (!out.emplace(std::pair{c.dtype(), c.op()}, c.bytes_per_second()).second) return which + ": given twice";
  }
  return std::nullopt;
}

}  // namespace

AgentRegistry::AgentRegistry(asio::io_context& io, protocol::Identity self, HeartbeatPolicy heartbeat, log::Sink log,
                             admission::PendingLimits pending)
    : io_(io), self_(std::move(self)), heartbeat_(heartbeat), log_(std::move(log)), acceptor_(io), pending_(pending),
      dropped_reported_at_(std::chrono::steady_clock::now() - std::chrono::seconds(10)) {}

AgentRegistry::~AgentRegistry() { stop(); }

void AgentRegistry::listen(const std::string& address) {
  const auto colon = address.rfind(':');
  std::error_code ec;
  asio::ip::address host;
  unsigned long port = 0;
  if (colon != std::string::npos) {
    host = asio::ip::make_address(address.substr(0, colon), ec);
    try {
      port = std::stoul(address.substr(colon + 1));
    } catch (const std::exception&) {
      ec = std::make_error_code(std::errc::invalid_argument);
    }
  }
  if (colon == std::string::npos || ec || port > 65535) {
    throw error::InvalidInput("agent listener address '" + address + "' is not numeric-host:port");
  }
  const asio::ip::tcp::endpoint endpoint(host, static_cast<unsigned short>(port));
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(asio::ip::tcp::acceptor::reuse_address(true));
  acceptor_.bind(endpoint, ec);
  if (ec) throw error::SystemError(ec, "cannot listen for agents at " + address);
  acceptor_.listen();
  *running_ = true;
  asio::co_spawn(io_, accept_loop(), asio::detached);
}

std::string AgentRegistry::address() const {
  std::error_code ec;
  const auto endpoint = acceptor_.local_endpoint(ec);
  return endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

void AgentRegistry::stop() {
  *running_ = false;
  std::error_code ignored;
  acceptor_.close(ignored);
  for (auto& [node, channel] : sessions_) channel->close();
}

asio::awaitable<void> AgentRegistry::accept_loop() {
  const std::shared_ptr<bool> running = running_;
  bool exhausted = false;  // descriptors ran out, and we said so
  asio::steady_timer backoff(io_);
  while (*running) {
    // Named, not a structured binding: GCC 12 mis-handles those across a co_await.
    std::tuple<std::error_code, asio::ip::tcp::socket> accepted =
        co_await acceptor_.async_accept(asio::experimental::as_tuple(asio::use_awaitable));
    const std::error_code ec = std::get<0>(accepted);
    if (!*running) break;
    if (admission::descriptors_exhausted(ec)) {
      // The connection stays queued in the kernel: accepting again at once would fail at
      // once, for ever, at full CPU. Wait, then try again (and never stop accepting).
      if (!exhausted && log_)
        log_.info("cannot accept agents for now: " + ec.message() + "; retrying every " +
                  std::to_string(admission::accept_backoff.count()) + " ms");
      exhausted = true;
      backoff.expires_after(admission::accept_backoff);
      const std::tuple<std::error_code> waited =
          co_await backoff.async_wait(asio::experimental::as_tuple(asio::use_awaitable));
      (void)waited;  // expired or cancelled: either way, accept again (or see that we stopped)
      continue;
    }
    if (ec) continue;  // a peer that gave up while queued
    if (exhausted && log_) log_.info("accepting agents again");
    exhausted = false;
    std::error_code no_address;
    std::string address = std::get<1>(accepted).remote_endpoint(no_address).address().to_string();
    asio::co_spawn(io_,
                   serve(std::make_shared<protocol::Channel>(std::move(std::get<1>(accepted))), std::move(address)),
                   asio::detached);
  }
}

void AgentRegistry::report_dropped() {
  const auto now = std::chrono::steady_clock::now();
  if (pending_.dropped() == dropped_reported_ || now - dropped_reported_at_ < std::chrono::seconds(10)) return;
  if (log_) {
    log_.info(std::to_string(pending_.dropped() - dropped_reported_) +
              " unauthenticated connection(s) dropped to make room " + "(at most " +
              std::to_string(pending_.limits().total) + " pending, " + std::to_string(pending_.limits().per_address) +
              " per address)");
  }
  dropped_reported_ = pending_.dropped();
  dropped_reported_at_ = now;
}

asio::awaitable<void> AgentRegistry::serve(std::shared_ptr<protocol::Channel> channel, std::string address) {
  const std::shared_ptr<bool> running = running_;
  const auto timeout = std::chrono::milliseconds(5000);
  std::string node;
  bool registered = false;
  // Until the handshake completes this connection holds a pending place, which a newer
  // one may take (closing it: counted in report_dropped, not logged one by one).
  bool dropped = false;
  admission::PendingConnections::Ticket pending = pending_.admit(address, [channel, &dropped] {
    dropped = true;
    channel->close();
  });
  report_dropped();
  try {
    node = co_await protocol::handshake(*channel, protocol::Side::responder, self_, "agent", handshake_deadline);
    pending.release();
    const protocol::Envelope first = co_await channel->receive(timeout);
    if (first.body_case() != protocol::Envelope::kRegister || first.register_().node_id() != node) {
      co_await channel->refuse("expected register for node " + node + ", got " +
                               std::string(protocol::type_name(first)));
      throw protocol::ChannelError("expected register");
    }
    const protocol::Register& reg = first.register_();
    const auto existing = agents_.find(node);
    if (existing != agents_.end() && existing->second.alive) {
      co_await channel->refuse("node id " + node + " is already registered from " + existing->second.peer);
      throw protocol::ChannelError("duplicate node id " + node);
    }
    if (reg.data_addresses_size() == 0 || reg.data_addresses_size() > 16) {
      co_await channel->refuse("register needs 1 to 16 data addresses");
      throw protocol::ChannelError("register without data addresses");
    }
    if (!(std::isfinite(reg.rate()) && reg.rate() >= 0)) {
      co_await channel->refuse("register: rate must be a finite number >= 0");
      throw protocol::ChannelError("register with a bad rate");
    }
    std::map<std::pair<protocol::DataType, protocol::ReduceOp>, double> speeds;
    if (const std::optional<error::Refusal> bad = read_combine_speeds(reg, speeds)) {
      co_await channel->refuse("register: " + bad->reason);
      throw protocol::ChannelError("register: " + bad->reason);
    }
    AgentInfo info{.node = node,
                   .addresses = {reg.data_addresses().begin(), reg.data_addresses().end()},
                   .transports = {reg.transports().begin(), reg.transports().end()},
                   .rate = reg.rate(),
                   .storage_id = reg.storage_id(),
                   .combine_speeds = std::move(speeds),
                   .peer = channel->peer(),
                   .alive = true,
                   .last_heard = std::chrono::steady_clock::now()};
    AgentInfo& known = agents_[node];  // never erased: the reference lasts the session
    known = info;
    sessions_[node] = channel;
    registered = true;
    // The interval this agent was last told, and the one before: until the agent has read
    // the newer one, its next heartbeat may come as late as the older allows.
    std::chrono::milliseconds told = heartbeat_interval();
    std::chrono::milliseconds told_before = told;
    protocol::Envelope answer;
    answer.mutable_registered()->set_coordinator_id(self_.node_id);
    answer.mutable_registered()->set_heartbeat_seconds(std::chrono::duration<double>(told).count());
    answer.set_leader_epoch(leader_epoch_);
    co_await channel->send(std::move(answer), timeout);
    if (log_)
      log_.info("agent " + node + " registered from " + channel->peer() + ", data at " + info.addresses.front());
    if (handler_) handler_(node, first);  // the driver learns of every new session

    while (*running && channel->is_open()) {
      protocol::Envelope message = co_await channel->receive(std::max(told, told_before) * 3);
      known.last_heard = std::chrono::steady_clock::now();
      switch (message.body_case()) {
        case protocol::Envelope::kHeartbeat:
          // The echo tells the agent we are alive, and how often to heartbeat from now on.
          told_before = std::exchange(told, heartbeat_interval());
          message.mutable_heartbeat()->set_interval_seconds(std::chrono::duration<double>(told).count());
          message.set_leader_epoch(leader_epoch_);
          co_await channel->send(message, timeout);
          break;
        case protocol::Envelope::kPlanAccepted:
        case protocol::Envelope::kPlanRefused:
        case protocol::Envelope::kStepReport:
        case protocol::Envelope::kJobStatus:
        case protocol::Envelope::kJobCommitted:
        case protocol::Envelope::kStepProgress:  // protocol 3: the driver takes what it reads
        case protocol::Envelope::kObjectAnswer:
        case protocol::Envelope::kStepPassed:
        case protocol::Envelope::kExchangeReport:
          if (handler_) handler_(node, message);
          break;
        default:
          co_await channel->refuse("a coordinator does not accept " + std::string(protocol::type_name(message)) +
                                   " after registration");
          throw protocol::ChannelError("unexpected " + std::string(protocol::type_name(message)));
      }
    }
  } catch (const protocol::AuthError& e) {
    record_refusal(address, e);
  } catch (const std::exception& e) {
    if (log_ && !dropped)
      log_.info("agent " + (node.empty() ? channel->peer() : node) + ": session ended: " + e.what());
  }
  channel->close();
  if (registered && sessions_[node] == channel) {
    sessions_.erase(node);
    agents_[node].alive = false;
    ++deaths_;
    if (log_) log_.info("agent " + node + " is dead");
    if (on_dead_) on_dead_(node);
  }
}

void AgentRegistry::record_refusal(const std::string& address, const protocol::AuthError& e) {
  const auto now = std::chrono::steady_clock::now();
  RefusedPeer& peer = refused_[{address, e.peer_node()}];
  peer = {address, e.peer_node(), e.reason(), peer.attempts + 1, now};
  if (refused_.size() > kMaxRefusedPeers) {
    refused_.erase(std::min_element(refused_.begin(), refused_.end(),
                                    [](const auto& a, const auto& b) { return a.second.last < b.second.last; }));
  }
  log_.error("agent authentication failed: " + std::string(e.what()) +
             "; its cluster secret (secret_file) must be this coordinator's (attempt " + std::to_string(peer.attempts) +
             ")");
}

std::vector<RefusedPeer> AgentRegistry::refused() const {
  std::vector<RefusedPeer> out;
  for (const auto& [key, peer] : refused_) out.push_back(peer);
  std::sort(out.begin(), out.end(), [](const RefusedPeer& a, const RefusedPeer& b) { return a.last > b.last; });
  return out;
}

bool AgentRegistry::send(const std::string& node, protocol::Envelope message) {
  const auto found = sessions_.find(node);
  if (found == sessions_.end()) return false;
  std::shared_ptr<protocol::Channel> channel = found->second;
  message.set_leader_epoch(leader_epoch_);
  asio::co_spawn(
      io_,
      [channel, message = std::move(message)]() mutable -> asio::awaitable<void> {
        try {
          co_await channel->send(std::move(message), std::chrono::milliseconds(5000));
        } catch (const std::exception&) {
          // The session's receive loop sees the closed channel and marks the agent dead.
        }
      },
      asio::detached);
  return true;
}

std::vector<AgentInfo> AgentRegistry::agents() const {
  std::vector<AgentInfo> out;
  for (const auto& [node, info] : agents_) out.push_back(info);
  return out;
}

bool AgentRegistry::alive(const std::string& node) const {
  const auto found = agents_.find(node);
  return found != agents_.end() && found->second.alive;
}

std::optional<AgentInfo> AgentRegistry::find(const std::string& node) const {
  const auto found = agents_.find(node);
  if (found == agents_.end()) return std::nullopt;
  return found->second;
}

}  // namespace baton::coordinator
