// The data-plane handshake: before any flow, the sender (which connected) and the
// receiver prove the cluster secret to each other with the key schedule of the control
// plane (security/key_schedule.h, plane "data"), in hello and proof frames (frame.h), and
// the connection is then sealed (frame_seal.h). The receiver learns which node is
// sending; the sender checks that it reached the node it meant to. docs/security.md.
//
//   sender -> receiver   hello(role "sender", node id, nonce)
//   receiver -> sender   hello(role "receiver", node id, nonce)
//   sender -> receiver   proof (Finished of the initiator)
//   receiver -> sender   proof (Finished of the responder), only once the sender's checked
//
// Before it completes only control frames are read (at most max_reject_reason bytes of
// payload), and all of it must finish within one deadline.
#pragma once

#include <chrono>
#include <string>
#include <system_error>

#include "error/result.h"
#include "transport/async.h"
#include "transport/connection.h"

namespace baton::transport {

struct NodeIdentity {
  std::string node_id;
  std::string secret;  // the cluster's shared secret
};

// The peer's node id, once proven; else authentication_failed, rejected_by_peer, or a
// connection error, with what went wrong (for the flow's or the step's error).
using Authentication = error::Result<std::string>;

// The sender's side. Fails (and tells the peer why) unless the peer proves the secret as
// node `expected_receiver`.
asio::awaitable<Authentication> authenticate_as_sender(Connection& connection, NodeIdentity self,
                                                       std::string expected_receiver,
                                                       std::chrono::milliseconds deadline);

// The receiver's side: the sender's node id once it has proven the secret.
asio::awaitable<Authentication> authenticate_as_receiver(Connection& connection, NodeIdentity self,
                                                         std::chrono::milliseconds deadline);

}  // namespace baton::transport
