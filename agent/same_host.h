// Peers on the same host reach each other through shared memory (libfabric's shm
// provider) instead of the network: docs/transport.md, "Same-host peers".
//
// An agent that has a shared-memory data plane registers one data address that says so:
// its network address, then " shm=" and its host's identity and its shm endpoint
// ("127.0.0.1:40213 shm=<boot id>.<net namespace>/<hex>"). The coordinator hands the
// address on as it is (Flow.peer_address); a sender whose own host identity is the one in
// the address connects through memory, any other through the network part.
//
// A host is one kernel boot and one network namespace: agents in different namespaces of
// one machine (scripts/netns-star.sh's emulated nodes) are different hosts here, so their
// flows keep crossing the links the plan was made for.
#pragma once

#include <string>

namespace baton::agent {

// This process's host identity: "<boot id>.<net namespace inode>"; empty when either cannot
// be read (no /proc), in which case no peer counts as on this host.
std::string host_identity();

struct PeerAddress {
  std::string network;  // "host:port": always there
  std::string host;     // the peer's host identity; empty if it has no shared-memory path
  std::string memory;   // its shm endpoint address (hex)
};

// The registered data address of an agent with a shared-memory path beside `network`.
std::string with_memory_path(const std::string& network, const std::string& host, const std::string& memory);

// Splits a registered data address. Text without " shm=" is a network address alone; a
// malformed shared-memory part is dropped (the network part still works), with `detail`
// saying what was wrong.
PeerAddress split_peer_address(const std::string& address, std::string& detail);

}  // namespace baton::agent
