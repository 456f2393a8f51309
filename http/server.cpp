#include "http/server.h"

#include "http/on_demand_pool.h"

#include <arpa/inet.h>
#include <malloc.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <functional>
#include <optional>
#include <utility>

namespace baton::http {
namespace {

using Clock = std::chrono::steady_clock;

// How often a wait looks whether the server is stopping.
constexpr std::chrono::milliseconds kStopCheck{100};

std::string address_text(const sockaddr_storage& address, int* port) {
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (address.ss_family == AF_INET6) {
    const auto& in6 = reinterpret_cast<const sockaddr_in6&>(address);
    ::inet_ntop(AF_INET6, &in6.sin6_addr, text.data(), text.size());
    if (port) *port = ntohs(in6.sin6_port);
  } else if (address.ss_family == AF_INET) {
    const auto& in4 = reinterpret_cast<const sockaddr_in&>(address);
    ::inet_ntop(AF_INET, &in4.sin_addr, text.data(), text.size());
    if (port) *port = ntohs(in4.sin_port);
  }
  return text.data();
}

std::string peer_of(socket_t sock, int* port = nullptr) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getpeername(sock, reinterpret_cast<sockaddr*>(&address), &length) != 0) return {};
  return address_text(address, port);
}

std::string local_of(socket_t sock, int* port) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getsockname(sock, reinterpret_cast<sockaddr*>(&address), &length) != 0) return {};
  return address_text(address, port);
}

// A connection's socket read and written against deadlines for the whole request and
// the whole answer, not for each read; reads are buffered (cpp-httplib reads a request's
// head a byte at a time) and the buffer carries over to the next request.
class DeadlineStream : public httplib::Stream {
 public:
  DeadlineStream(socket_t sock, const std::function<bool()>& stopping) : sock_(sock), stopping_(stopping) {}

  // The next request: its head and body must arrive by now + kRequestTimeout (the caller
  // saw its first byte), its answer leave within kResponseTimeout of the first write.
  void next_request() {
    read_deadline_ = Clock::now() + kRequestTimeout;
    write_deadline_.reset();
  }
  bool has_buffered() const { return start_ < end_; }

  // Waits for the first byte of a request, at most kIdleTimeout.
  bool wait_for_request() const { return has_buffered() || wait(POLLIN, Clock::now() + kIdleTimeout); }

  bool is_readable() const override { return has_buffered() || wait(POLLIN, read_deadline_); }
  bool is_writable() const override { return wait(POLLOUT, write_deadline()); }

  ssize_t read(char* out, size_t size) override {
    if (!has_buffered()) {
      if (!wait(POLLIN, read_deadline_)) return -1;
      const ssize_t n = ::recv(sock_, buffer_.data(), buffer_.size(), 0);
      if (n <= 0) return n;
      start_ = 0;
      end_ = static_cast<std::size_t>(n);
    }
    const std::size_t n = std::min(size, end_ - start_);
    std::memcpy(out, buffer_.data() + start_, n);
    start_ += n;
    read_ += n;
    return static_cast<ssize_t>(n);
  }
  // Bytes read since the last call.
  std::size_t take_read() { return std::exchange(read_, 0); }

  ssize_t write(const char* data, size_t size) override {
    if (!write_deadline_) write_deadline_ = Clock::now() + kResponseTimeout;
    if (!wait(POLLOUT, *write_deadline_)) return -1;
    return ::send(sock_, data, size, MSG_NOSIGNAL);
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override { ip = peer_of(sock_, &port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { ip = local_of(sock_, &port); }
  socket_t socket() const override { return sock_; }

 private:
  Clock::time_point write_deadline() const { return write_deadline_.value_or(Clock::now() + kResponseTimeout); }

  // Polls for `events` until `deadline`, in slices so that a stopping server is noticed.
  bool wait(short events, Clock::time_point deadline) const {
    for (;;) {
      if (stopping_()) return false;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return false;
      pollfd fd{sock_, events, 0};
      const int ready = ::poll(&fd, 1, static_cast<int>(std::min(left, kStopCheck).count()));
      if (ready > 0) return true;
      if (ready < 0 && errno != EINTR) return false;
    }
  }

  socket_t sock_;
  const std::function<bool()>& stopping_;
  Clock::time_point read_deadline_ = Clock::now() + kRequestTimeout;
  std::optional<Clock::time_point> write_deadline_;
  std::array<char, 4096> buffer_{};
  std::size_t start_ = 0, end_ = 0;
  std::size_t read_ = 0;
};

// A request of this many bytes or more is followed by malloc_trim: freed, its body and
// what was parsed of it would otherwise stay in the process (glibc keeps a thread's freed
// heap for reuse), and a few hostile requests left the coordinator at 346 MiB resident
// for good (docs/security.md, "Bounded queues and bodies").
constexpr std::size_t kTrimAfterBytes = std::size_t{1} << 20;

void give_back_freed_memory() {
#ifdef __GLIBC__
  ::malloc_trim(0);
#endif
}

}  // namespace

void return_large_blocks_to_the_system() {
#ifdef __GLIBC__
  // Fixed, these turn off glibc's sliding thresholds: once a 4 MiB block had been freed,
  // blocks up to 4 MiB came from the threads' heaps and 8 MiB of free heap stayed in each.
  ::mallopt(M_MMAP_THRESHOLD, static_cast<int>(kTrimAfterBytes));
  ::mallopt(M_TRIM_THRESHOLD, static_cast<int>(kTrimAfterBytes));
#endif
}

namespace {}  // namespace

Server::Server() {
  new_task_queue = [] { return new OnDemandPool(kMaxConnections); };
}

bool Server::admit(const std::string& address) {
  const std::lock_guard lock(mutex_);
  std::size_t& count = connections_[address];
  if (count >= kMaxPerAddress) return false;
  ++count;
  return true;
}

void Server::release(const std::string& address) {
  const std::lock_guard lock(mutex_);
  if (--connections_[address] == 0) connections_.erase(address);
}

bool Server::process_and_close_socket(socket_t sock) {
  const std::string peer = peer_of(sock);
  bool served = false;
  if (!admit(peer)) {
    // Said without waiting: a client over its share gets no thread for long.
    const std::string body =
        "{\"error\": \"too many connections from " + peer + " (at most " + std::to_string(kMaxPerAddress) + ")\"}\n";
    const std::string answer =
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
        "Connection: close\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body;
    [[maybe_unused]] const ssize_t sent = ::send(sock, answer.data(), answer.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  } else {
    const std::function<bool()> stopping = [this] { return this->stopping(); };
    DeadlineStream stream(sock, stopping);
    for (std::size_t left = kMaxRequests; left > 0 && stream.wait_for_request(); --left) {
      stream.next_request();
      bool closed = false;
      served = process_request(stream, left == 1, closed, nullptr);
      if (stream.take_read() >= kTrimAfterBytes) give_back_freed_memory();
      if (!served || closed) break;
    }
    release(peer);
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return served;
}

}  // namespace baton::http
