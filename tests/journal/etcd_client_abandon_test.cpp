// EtcdClient::abandon (docs/ha.md, "The election", step 5): a request waiting on a member
// that takes the connection and answers nothing (etcd without a quorum, or frozen) fails
// as soon as another thread abandons the client, saying so, and every later request fails
// at once. No etcd needed: a loopback listener whose connections nobody serves.
#include "coordinator/journal/etcd_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <future>
#include <string>

namespace bj = baton::journal;

namespace {

// The kernel completes its connections (the backlog); nothing reads or answers them.
class SilentListener {
 public:
  SilentListener() : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    BOOST_REQUIRE(fd_ >= 0);
    BOOST_REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&address), length) == 0);
    BOOST_REQUIRE(::listen(fd_, 8) == 0);
    BOOST_REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    port_ = ntohs(address.sin_port);
  }
  ~SilentListener() { ::close(fd_); }
  SilentListener(const SilentListener&) = delete;
  SilentListener& operator=(const SilentListener&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // Until a connection waits in the backlog (a guard of a minute against a hang).
  void wait_for_connection() const {
    pollfd waiting{.fd = fd_, .events = POLLIN, .revents = 0};
    BOOST_REQUIRE(::poll(&waiting, 1, 60'000) == 1);
  }

 private:
  int fd_;
  int port_ = 0;
};

bool says_abandoned(const bj::EtcdError& e) { return std::string(e.what()) == "etcd: requests abandoned: deposed"; }

}  // namespace

BOOST_AUTO_TEST_SUITE(etcd_client_abandon)

BOOST_AUTO_TEST_CASE(a_request_waiting_on_a_silent_member_fails_once_abandoned_and_so_does_every_later_one) {
  SilentListener member;
  // A timeout no test waits out: only abandon() can end the request.
  bj::EtcdClient client({.endpoints = {member.url()}, .timeout = std::chrono::minutes(10)});
  auto request = std::async(std::launch::async, [&] { return client.get("/baton/x/leader"); });
  member.wait_for_connection();
  client.abandon("deposed");
  BOOST_CHECK_EXCEPTION(request.get(), bj::EtcdError, says_abandoned);
  BOOST_CHECK_EXCEPTION(client.get("/baton/x/leader"), bj::EtcdError, says_abandoned);
}

BOOST_AUTO_TEST_SUITE_END()
