// Baton inside an application (docs/embedding.md): a coupled
// simulation registers its arrays as named memory regions and takes part in jobs as a
// node, without a separate baton-agent process. Plans name regions where the daemon's
// name files; the coordinator, the protocol and the transport are the same.
//
//   baton::EmbeddedAgent node({.node_id = "sim-3", .coordinator = "head:7071", .secret = key});
//   node.register_region("u", std::as_writable_bytes(std::span(u)));
//   node.wait_registered(10s);
//   ... a job moving "u" is submitted (batonctl, or the coupling code) ...
//   node.wait_job("42", 10min);   // "done": u holds its new part
//
// Threading: the agent runs on its own thread, or on an EmbeddedLoop's shared with other
// agents of the process; every member may be called from any one application thread.
// Regions must stay valid, and untouched by the application, while a job that names them
// runs.
#pragma once

#include "error/refusal.h"
#include "transport/open.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace baton {

// One event loop, on a thread of its own, that several embedded agents of one process run
// on (a process that hosts many nodes: bench/scale_agents.cpp's hundreds). Each agent is
// single-threaded either way; sharing the loop spares the process a thread per node and
// the switches between them. Every agent on it holds it, so it ends after the last one.
class EmbeddedLoop {
 public:
  EmbeddedLoop();
  ~EmbeddedLoop();
  EmbeddedLoop(const EmbeddedLoop&) = delete;
  EmbeddedLoop& operator=(const EmbeddedLoop&) = delete;

 private:
  friend class EmbeddedAgent;
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

struct EmbeddedOptions {
  std::string node_id;
  std::string coordinator;                   // "host:port" of the coordinator's agent listener
  std::string secret;                        // the cluster's shared secret
  std::string data_address = "127.0.0.1:0";  // where peers connect for data (port 0: any)
  double rate = 0;                           // bytes/s this node can move, told to the coordinator
  transport::TransportConfig transport{};
  // Peers on this host (one boot, one network namespace) through shared memory, libfabric's
  // shm provider, the network's transport for the others (docs/transport.md, "Same-host
  // peers"). Off by default: measured, it is slower than loopback TCP so far. Without shm
  // in this build or on this machine, the network for every peer.
  bool same_host_memory = false;
  // One line per event (registered, plan accepted, step done, ...) at info; what an
  // operator must fix (a refused cluster secret) at warning. Nothing when empty.
  log::Sink log{};
  // The loop to run on, shared with other agents; none: a thread of the agent's own.
  std::shared_ptr<EmbeddedLoop> loop{};
};

class EmbeddedAgent {
 public:
  // Opens the transport, listens for data and starts connecting to the coordinator.
  // Throws an error::Error naming what failed (address, transport).
  explicit EmbeddedAgent(EmbeddedOptions options);
  // Stops like SIGTERM stops the daemon: a running step finishes and is reported first.
  ~EmbeddedAgent();
  EmbeddedAgent(const EmbeddedAgent&) = delete;
  EmbeddedAgent& operator=(const EmbeddedAgent&) = delete;

  // Registers (or replaces) the region `name`; plans naming it read or write `bytes`.
  void register_region(const std::string& name, std::span<std::byte> bytes);
  void unregister_region(const std::string& name);

  // Waits until the agent is registered with the coordinator; false after `timeout`.
  bool wait_registered(std::chrono::milliseconds timeout);
  // Waits until this node's part of `job` ended: "done" (every step of it ran here),
  // "aborted" (cancelled or failed), or "" after `timeout`.
  std::string wait_job(const std::string& job, std::chrono::milliseconds timeout);
  // An exchange of a kept plan (a persistent handoff's; docs/embedding.md, "Persistent
  // handoffs"), as it went on this node.
  struct Exchange {
    std::optional<error::Refusal> failure;  // why it did not end well; none when it did
    std::uint64_t bytes = 0;                // moved by this node
    double seconds = 0;                     // on this node, from its start to its end
  };
  // Why an exchange of `job`'s kept plan cannot start on this node now; none when it can.
  std::optional<error::Refusal> why_no_exchange(const std::string& job);
  // Runs exchange `number` of `job`'s kept plan: every member's application calls this with
  // the same job and number (in [1, 2^32)). Returns when this node's part of the last step
  // ended (its chunks received and verified, its sends acknowledged; every step before it
  // passed the members' barrier), or `timeout` after the call (a failure saying so; the
  // exchange then ends on its own step timeouts). Whether every member's last step went
  // well is for the applications to agree on (the coupling layer's second round does).
  Exchange exchange(const std::string& job, std::uint64_t number, std::chrono::milliseconds timeout);
  // What the agent is doing: "idle", "job 7 step 3/10", ...
  std::string status();
  // Where peers reach this node's data plane.
  std::string data_address() const;

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

}  // namespace baton
