// What the kernel knows about a TCP connection, in words, for the error of a flow that
// went silent: whether the peer stopped reading (a closed window) or the network lost
// its segments (retransmission back-off), and for how long. Linux TCP_INFO.
#pragma once

#include <string>

namespace baton::transport::tcp {

// "TCP: 3 retransmission timeouts in a row (next in 1.6 s), 12 segments unacknowledged, ...
// last data received 2.4 s ago, last ack 3.1 s ago" — empty when there is no TCP_INFO.
std::string link_state(int socket);

}  // namespace baton::transport::tcp
