// The coordinator's agent registry (docs/runtime.md, "Control sessions" 1–3): accepts
// agents' control connections, authenticates them with the cluster secret, registers them,
// echoes their heartbeats with the interval for the cluster's size (heartbeat_policy.h)
// and declares an agent dead after three silent intervals. Every
// other message an agent sends goes to the handler (the job driver), its Register too
// (after the agent is registered), so the driver learns of every new session.
//
// Before a peer has authenticated it gets little: frames of at most 4 KiB, one deadline for
// the whole handshake, and a place among a capped number of pending connections
// (admission/pending_connections.h); an accept that finds descriptors exhausted waits a
// moment instead of spinning (docs/security.md, "Before authentication").
//
// Threading: everything runs on the io_context's thread.
#pragma once

#include "admission/descriptors.h"
#include "admission/pending_connections.h"
#include "coordinator/daemon/agent_directory.h"
#include "coordinator/daemon/heartbeat_policy.h"
#include "log/log.h"
#include "protocol/channel.h"
#include "protocol/handshake.h"

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace baton::coordinator {

// A peer that tried to register and failed authentication (a wrong cluster secret, most
// likely): shown by `batonctl agents` so that an agent retrying in vain is seen.
struct RefusedPeer {
  std::string address;  // the peer's IP address
  std::string node;     // the node id its Hello claimed (unauthenticated), or ""
  std::string reason;   // "wrong cluster secret", ...
  std::uint64_t attempts = 0;
  std::chrono::steady_clock::time_point last{};
};

class AgentRegistry final : public AgentDirectory {
 public:
  using Handler = std::function<void(const std::string& node, const protocol::Envelope& message)>;

  // How long a connecting agent has to complete the handshake.
  static constexpr std::chrono::milliseconds handshake_deadline{5000};

  AgentRegistry(asio::io_context& io, protocol::Identity self, HeartbeatPolicy heartbeat, log::Sink log,
                admission::PendingLimits pending = admission::limits_for(admission::descriptor_limit()));
  ~AgentRegistry();

  // Listens for agents at "host:port" (port 0: any). Throws an error::Error naming it.
  void listen(const std::string& address);
  std::string address() const;
  void stop();

  void set_handler(Handler handler) { handler_ = std::move(handler); }
  // Called when a registered agent's session ends and the node is marked dead: the
  // phases waiting on it must look again (a self-paced range whose other members wait in
  // their barrier sends nothing that would wake them).
  using Lost = std::function<void(const std::string& node)>;
  void set_on_dead(Lost lost) { on_dead_ = std::move(lost); }
  // Where a failed authentication is logged, with the peer's address: an operator must fix
  // it (the daemon logs it at error). Unset: the log given to the constructor.

  // The latest peers refused at the handshake, by address and claimed node, most recent
  // first; at most kMaxRefusedPeers (an attacker cannot grow it).
  static constexpr std::size_t kMaxRefusedPeers = 32;
  std::vector<RefusedPeer> refused() const;

  // The leader's epoch (docs/ha.md), stamped on every message to the agents; 0 without an
  // election.
  void set_leader_epoch(std::uint64_t epoch) { leader_epoch_ = epoch; }

  // The heartbeat interval the agents are told now: the policy's for the live sessions.
  std::chrono::milliseconds heartbeat_interval() const { return heartbeat_.interval(sessions_.size()); }

  bool send(const std::string& node, protocol::Envelope message) override;
  std::vector<AgentInfo> agents() const override;
  std::optional<AgentInfo> find(const std::string& node) const override;
  bool alive(const std::string& node) const override;
  std::uint64_t deaths() const override { return deaths_; }

  // Connections not yet authenticated, and how many of them were dropped to make room.
  const admission::PendingConnections& pending() const noexcept { return pending_; }

 private:
  asio::awaitable<void> accept_loop();
  asio::awaitable<void> serve(std::shared_ptr<protocol::Channel> channel, std::string address);
  // Logs, at most every few seconds, how many pending connections were dropped.
  void report_dropped();
  // Counts a peer refused at the handshake and logs it at error with its address.
  void record_refusal(const std::string& address, const protocol::AuthError& e);

  asio::io_context& io_;
  protocol::Identity self_;
  HeartbeatPolicy heartbeat_;
  log::Logger log_;
  Handler handler_;
  Lost on_dead_;
  std::map<std::pair<std::string, std::string>, RefusedPeer> refused_;  // by (address, node)
  asio::ip::tcp::acceptor acceptor_;
  admission::PendingConnections pending_;
  std::uint64_t dropped_reported_ = 0;
  std::chrono::steady_clock::time_point dropped_reported_at_{};
  std::map<std::string, AgentInfo> agents_;
  std::uint64_t deaths_ = 0;
  std::map<std::string, std::shared_ptr<protocol::Channel>> sessions_;
  std::shared_ptr<bool> running_ = std::make_shared<bool>(false);
  std::uint64_t leader_epoch_ = 0;
};

}  // namespace baton::coordinator
