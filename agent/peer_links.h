// Kept data-plane connections to peer agents (docs/runtime.md, "Kept connections"): a
// sender opens and authenticates a connection to a peer once and sends every later flow
// of every step and job to that peer over it, as gloo's pairs and Open MPI's BTLs do,
// instead of paying connect, handshake and TCP slow start per flow.
//
// A connection is lent out for one send task (Link) and comes back when the task ended
// well; one that failed, or that its peer closed while it lay idle (Connection::reusable),
// is dropped, and the next send opens a new one. Idle connections older than idle_limit
// are closed: the receiver gives up on an idle connection later (DataPlane::kept_idle),
// so a sender never sends into a connection its receiver is closing. Nothing about a kept
// connection is looser than a fresh one: it was authenticated to the very node the plan
// names (the key is node and address), and its frames stay sealed in sequence
// (transport/frame_seal.h), so a replayed or redirected frame still fails.
//
// Peers on this host go through shared memory when the links have a same-host context and
// the peer's address offers a memory path for this host (agent/same_host.h); if connecting
// through memory fails, the network address is used instead.
//
// Lifetimes: the links may be destroyed before the Links lent out (those are then closed
// when returned); every connection must end before the context that made it.
// Threading: the context's executor, as the step runners that use it.
#pragma once

#include "error/result.h"
#include "transport/authenticate.h"
#include "transport/connection.h"
#include "transport/context.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace baton::agent {

class PeerLinks;

// One connection lent out by PeerLinks. keep() gives it back for the next flow; dropping
// the Link without keep() closes it (what a failed send does).
class Link {
 public:
  Link() = default;
  Link(Link&&) noexcept = default;
  Link& operator=(Link&&) noexcept;
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;
  ~Link();

  transport::Connection& connection() const noexcept { return *connection_; }
  // Whether this connection carried a flow before (it was kept).
  bool reused() const noexcept { return reused_; }
  // Whether it goes through shared memory ("shm") or the network ("network").
  const char* path() const noexcept { return through_memory_ ? "shm" : "network"; }
  // Returns the connection to the links for the next flow to the same peer, if it has not
  // failed; the Link is empty afterwards.
  void keep() noexcept;

 private:
  friend class PeerLinks;
  struct Pool;
  Link(std::weak_ptr<Pool> pool, std::pair<std::string, std::string> key,
       std::unique_ptr<transport::Connection> connection, bool reused, bool through_memory);

  std::weak_ptr<Pool> pool_;
  std::pair<std::string, std::string> key_;  // (peer node, address)
  std::unique_ptr<transport::Connection> connection_;
  bool reused_ = false;
  bool through_memory_ = false;
};

// This host's shared-memory context and identity; an empty one: every peer over the network.
struct SameHostPath {
  transport::Context* context = nullptr;
  std::string host;  // agent/same_host.h host_identity()
};

class PeerLinks {
 public:
  // An idle connection is closed after this long unused.
  static constexpr std::chrono::seconds idle_limit{30};

  // Connections authenticate as `self`. The contexts outlive the links.
  PeerLinks(transport::Context& context, transport::NodeIdentity self, SameHostPath same_host = {});
  ~PeerLinks();
  PeerLinks(const PeerLinks&) = delete;
  PeerLinks& operator=(const PeerLinks&) = delete;

  // A connection to node `peer` at `address`, authenticated: a kept one that is still
  // reusable, else a new one. On failure, `detail` is the whole line: whether connecting
  // or the handshake failed, and why.
  asio::awaitable<error::Result<Link>> acquire(std::string peer, std::string address);

  // Closes every idle connection (the agent stops, or a test wants fresh ones).
  void close_idle() noexcept;

  // Connections opened so far, those of them through shared memory, and how many lie idle
  // now (metrics, tests).
  std::uint64_t opened() const noexcept;
  std::uint64_t opened_through_memory() const noexcept;
  std::size_t idle() const noexcept;

 private:
  transport::Context& context_;
  transport::NodeIdentity self_;
  SameHostPath same_host_;
  std::shared_ptr<Link::Pool> pool_;
};

}  // namespace baton::agent
