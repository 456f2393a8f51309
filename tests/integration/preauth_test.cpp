// The coordinator's agent port before authentication (docs/security.md, "Before
// authentication"), against a real baton-coordinator and baton-agent on loopback, as the
// security review attacked it: a crowd of idle connections does not keep a real agent
// from registering, and connections that announce 16 MiB frames are cut off unread.
#include "admission/pending_connections.h"
#include "tests/integration/cluster.h"

#include <boost/test/unit_test.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <thread>

using baton::test::Cluster;
using namespace std::chrono_literals;

namespace {

// A TCP connection to "127.0.0.1:port" that this test owns (closed at the end).
class RawConnection {
 public:
  explicit RawConnection(const std::string& address) : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    BOOST_REQUIRE(fd_ >= 0);
    const auto colon = address.rfind(':');
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(static_cast<std::uint16_t>(std::stoul(address.substr(colon + 1))));
    BOOST_REQUIRE(::inet_pton(AF_INET, address.substr(0, colon).c_str(), &to.sin_addr) == 1);
    BOOST_REQUIRE_MESSAGE(::connect(fd_, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0, "connect: " << errno);
  }
  ~RawConnection() { ::close(fd_); }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  void send(const std::string& bytes) const {
    BOOST_REQUIRE(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) > 0);
  }
  // Whether the other end has closed it (end of stream or reset), without waiting.
  bool closed_by_peer() const {
    char byte = 0;
    const ssize_t n = ::recv(fd_, &byte, 1, MSG_DONTWAIT | MSG_PEEK);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
  }

 private:
  int fd_;
};

// How many of `connections` the coordinator has closed, waiting up to `wait` for `expected`.
std::size_t closed_by_peer(const std::vector<std::unique_ptr<RawConnection>>& connections, std::size_t expected,
                           std::chrono::milliseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  for (;;) {
    std::size_t closed = 0;
    for (const auto& c : connections) closed += c->closed_by_peer() ? 1 : 0;
    if (closed >= expected || std::chrono::steady_clock::now() >= deadline) return closed;
    std::this_thread::sleep_for(20ms);
  }
}

// The caps the coordinator chose: it raises its open-file limit to the hard limit, which
// it inherits from this process.
baton::admission::PendingLimits coordinator_caps() {
  rlimit limit{};
  BOOST_REQUIRE(::getrlimit(RLIMIT_NOFILE, &limit) == 0);
  return baton::admission::limits_for(limit.rlim_max);
}

// The resident memory of process `pid`, in bytes.
std::uint64_t resident_bytes(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmRSS:")) return std::stoull(line.substr(6)) * 1024;
  }
  BOOST_FAIL("no VmRSS for process " << pid);
  return 0;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pre_authentication)

// The review's 1100 idle connections exhausted the coordinator's descriptors. Now one
// address holds at most its share of pending places: beyond it the oldest idle
// connections are closed at once (long before the handshake deadline of 5 s), and a real
// agent, from the same address, registers as fast as without them.
BOOST_AUTO_TEST_CASE(an_agent_registers_while_idle_connections_crowd_the_agent_port) {
  Cluster cluster;
  const std::size_t crowd = 200;
  const std::size_t share = coordinator_caps().per_address;
  std::vector<std::unique_ptr<RawConnection>> idle;
  for (std::size_t i = 0; i < crowd; ++i) idle.push_back(std::make_unique<RawConnection>(cluster.agents_address()));
  BOOST_TEST(closed_by_peer(idle, crowd - share, 2s) >= crowd - share);
  BOOST_TEST(cluster.coordinator_log().find("unauthenticated connection(s) dropped to make room") != std::string::npos,
             cluster.coordinator_log());
  const auto start = std::chrono::steady_clock::now();
  cluster.start_agent("a1");
  BOOST_TEST(cluster.wait_alive(1, 5s), cluster.agent_log("a1"));
  BOOST_TEST(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 5.0);
}

// The review's 100 connections announcing 16 MiB each drove the coordinator to 1.24 GiB.
// Before authentication a frame may hold 4 KiB: each is cut off as its length arrives,
// and the coordinator's memory does not grow by anything like one such frame.
BOOST_AUTO_TEST_CASE(connections_announcing_16_mib_before_authenticating_are_cut_off_unread) {
  Cluster cluster;
  const std::size_t count = std::min<std::size_t>(50, coordinator_caps().per_address);  // none pushed out by the cap
  const std::uint64_t before = resident_bytes(cluster.coordinator_pid());
  std::vector<std::unique_ptr<RawConnection>> attackers;
  for (std::size_t i = 0; i < count; ++i) {
    attackers.push_back(std::make_unique<RawConnection>(cluster.agents_address()));
    attackers.back()->send(std::string("\x01\x00\x00\x00", 4) + std::string(1000, 'x'));  // 16 MiB announced
  }
  BOOST_TEST(closed_by_peer(attackers, count, 2s) == count);  // the handshake's deadline is 5 s
  const std::uint64_t after = resident_bytes(cluster.coordinator_pid());
  BOOST_TEST(after < before + (16u << 20), "resident memory grew from " << before << " to " << after << " bytes");
  BOOST_TEST(occurrences(cluster.coordinator_log(), "above the limit of 4096") == count, cluster.coordinator_log());
}

BOOST_AUTO_TEST_SUITE_END()
