// The node's data listener: accepts connections from peer agents at any time, has each
// sender prove the cluster secret and its node id (transport/authenticate.h) within a few
// seconds, and hands each incoming flow, with the node it comes from, to the step runner
// of the flow's job (by the job number its begin frame carries), which decides where its
// bytes go or refuses it (docs/runtime.md, "The data plane"; docs/security.md).
//
// Before a sender has authenticated it gets little: control frames of at most 512 bytes,
// one deadline for the handshake, and a place among a capped number of pending
// connections, which a newer one may take (admission/pending_connections.h); an accept
// that finds descriptors exhausted waits a moment instead of spinning.
//
// Lifetimes: the data plane owns its coroutines (the accept loop, one per connection);
// stop() ends them and completes once every one has ended, and must have completed before
// the data plane is destroyed. The step runners flows go to are the Agent's: the data plane
// only looks at them (route_to), for one flow at a time.
// Threading: runs on the transport context's executor.
#pragma once

#include "admission/descriptors.h"
#include "admission/pending_connections.h"
#include "agent/rate_limited_log.h"
#include "agent/signal.h"
#include "agent/step_runner.h"
#include "transport/authenticate.h"
#include "transport/context.h"

#include <map>
#include <memory>
#include <set>
#include <string>

namespace baton::agent {

class DataPlane {
 public:
  // How long a sender has to authenticate after connecting.
  static constexpr std::chrono::milliseconds handshake_deadline{5000};
  // How long an authenticated connection may wait for its next flow: longer than a
  // sender keeps an idle connection (PeerLinks::idle_limit), so that the sender is the
  // one that closes it, never a receiver under a flow being sent.
  static constexpr std::chrono::milliseconds kept_idle{60'000};

  // Listens at `address` (TCP "host:port", port 0 = any) for senders that prove `self`'s
  // cluster secret. Throws error::SystemError naming the address when it cannot.
  DataPlane(transport::Context& context, const std::string& address, transport::NodeIdentity self,
            admission::PendingLimits pending = admission::limits_for(admission::descriptor_limit()));
  DataPlane(const DataPlane&) = delete;
  DataPlane& operator=(const DataPlane&) = delete;

  // The address peers connect to.
  std::string address() const { return listener_->address(); }

  // Starts accepting (a coroutine on the context's executor).
  void start();
  // Stops accepting and ends every connection (and any flow on it: stop the agent first,
  // so that no step is running); completes when every coroutine of the data plane has
  // ended.
  asio::awaitable<void> stop();

  // Incoming flows of `runner`'s job (its plan's job_number) go to it, in place of any
  // runner routed for that job number before. The Agent owns the runners: a flow of a job
  // whose runner has expired, or was never routed, is refused. An empty `runner` drops
  // every route.
  void route_to(const std::weak_ptr<StepRunner>& runner);

  // Connections not yet authenticated, and how many of them were dropped to make room.
  const admission::PendingConnections& pending() const noexcept { return pending_; }

  // Where refusals go, at warning: a connection that does not authenticate, a frame whose
  // seal does not match, a flow no step of this node expects. At most refusal_burst lines
  // per refusal_window (a peer can send forgeries as fast as it likes), the rest counted.
  void log_to(log::Sink sink) { refusals_.set_sink(std::move(sink)); }
  static constexpr std::size_t refusal_burst = 10;
  static constexpr std::chrono::seconds refusal_window{10};

 private:
  // Counts a coroutine of the data plane while it lives; stop() waits for none to be left.
  class Alive;
  asio::awaitable<void> accept_loop();
  asio::awaitable<void> serve(std::unique_ptr<transport::Connection> connection);
  // Where a flow `sender` announced goes, from the runner (refused once stopping); sets
  // `finished` to what the runner wants called when the flow ends.
  asio::awaitable<transport::ResolvedSink> resolve(transport::FlowSpec flow, std::string sender,
                                                   std::function<void(const transport::FlowReport&)>& finished);

  transport::Context& context_;
  transport::NodeIdentity self_;
  std::unique_ptr<transport::Listener> listener_;
  admission::PendingConnections pending_;
  std::map<std::uint64_t, std::weak_ptr<StepRunner>> routes_;  // by job number
  std::set<transport::Connection*> connections_;               // authenticated or not, until serve() ends
  RateLimitedLog refusals_{refusal_burst, refusal_window};
  std::size_t alive_ = 0;  // coroutines not ended yet
  bool stopping_ = false;
  Signal stop_requested_;  // stop() was called
  Signal ended_;           // a coroutine ended
};

}  // namespace baton::agent
