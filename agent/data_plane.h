// The node's data listener: accepts connections from peer agents at any time, has each
// sender prove the cluster secret and its node id (transport/authenticate.h) within a few
// seconds, and hands each incoming flow, with the node it comes from, to the step runner
// of the job in progress, which decides where its bytes go or refuses it (docs/runtime.md,
// "The data plane"; docs/security.md).
//
// Before a sender has authenticated it gets little: control frames of at most 512 bytes,
// one deadline for the handshake, and a place among a capped number of pending
// connections, which a newer one may take (admission/pending_connections.h); an accept
// that finds descriptors exhausted waits a moment instead of spinning.
//
// Threading: runs on the transport context's executor.
#pragma once

#include "admission/descriptors.h"
#include "admission/pending_connections.h"
#include "agent/step_runner.h"
#include "transport/authenticate.h"
#include "transport/context.h"

#include <memory>
#include <string>

namespace baton::agent {

class DataPlane {
 public:
  // How long a sender has to authenticate after connecting.
  static constexpr std::chrono::milliseconds handshake_deadline{5000};

  // Listens at `address` (TCP "host:port", port 0 = any) for senders that prove `self`'s
  // cluster secret. Throws std::runtime_error naming the address when it cannot.
  DataPlane(transport::Context& context, const std::string& address, transport::NodeIdentity self,
            admission::PendingLimits pending = admission::limits_for(admission::descriptor_limit()));
  ~DataPlane();
  DataPlane(const DataPlane&) = delete;
  DataPlane& operator=(const DataPlane&) = delete;

  // The address peers connect to.
  std::string address() const { return listener_->address(); }

  // Starts accepting (a coroutine on the context's executor).
  void start();
  // Stops accepting; connections already accepted end with their current flow.
  void stop() noexcept { *running_ = false; }

  // The runner incoming flows go to (null: every flow is refused). Not owned.
  void set_runner(StepRunner* runner) noexcept { runner_ = runner; }

  // Connections not yet authenticated, and how many of them were dropped to make room.
  const admission::PendingConnections& pending() const noexcept { return pending_; }

 private:
  transport::Task<void> accept_loop(std::shared_ptr<bool> running);
  transport::Task<void> serve(std::unique_ptr<transport::Connection> connection, std::shared_ptr<bool> running);

  transport::Context& context_;
  transport::NodeIdentity self_;
  std::unique_ptr<transport::Listener> listener_;
  admission::PendingConnections pending_;
  StepRunner* runner_ = nullptr;
  std::shared_ptr<bool> running_ = std::make_shared<bool>(false);
};

}  // namespace baton::agent
