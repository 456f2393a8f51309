// The cpp-httplib server both daemons serve with, bounded so that slow or idle clients
// cannot keep operators from an answer (docs/runtime.md, "HTTP limits"):
// - up to kMaxConnections connections are served at once, each on its own thread
//   (started as needed); more wait for one to finish;
// - one client address holds at most kMaxPerAddress of them; more are answered 503;
// - a connection may sit idle kIdleTimeout between requests, a request must arrive
//   whole within kRequestTimeout of its first byte and its answer leave within
//   kResponseTimeout, and a connection serves at most kMaxRequests requests.
// cpp-httplib's own timeouts apply to each read, so a client sending a byte a second
// held a thread forever.
#pragma once

#include <httplib.h>

#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace baton::http {

inline constexpr std::size_t kMaxConnections = 128;
inline constexpr std::size_t kMaxPerAddress = 96;
inline constexpr std::chrono::seconds kIdleTimeout{5};
inline constexpr std::chrono::seconds kRequestTimeout{10};
inline constexpr std::chrono::seconds kResponseTimeout{10};
inline constexpr std::size_t kMaxRequests = 100;

// Makes this process give freed blocks of 1 MiB and more back to the system at once, and
// trim its heaps' free tops past 1 MiB (glibc's mallopt; nothing elsewhere). A daemon whose
// clients may send large bodies calls it first thing: otherwise what a few hostile bodies
// made it allocate stays resident after they are refused (docs/security.md).
void return_large_blocks_to_the_system();

class Server : public httplib::Server {
 public:
  Server();

 private:
  // cpp-httplib calls this (a virtual of its Server) on a pool thread for every accepted
  // socket; it serves the connection's requests and closes it.
  bool process_and_close_socket(socket_t sock) override;
  // Counts a connection of `address`; false when it already holds kMaxPerAddress.
  bool admit(const std::string& address);
  void release(const std::string& address);
  bool stopping() const { return svr_sock_ == INVALID_SOCKET; }

  std::mutex mutex_;
  std::map<std::string, std::size_t> connections_;  // per client address
};

}  // namespace baton::http
