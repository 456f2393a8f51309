// The control channel's deadlines (protocol/operation_deadline.h): one timer per direction
// that moves itself on. A receive times out after its own timeout, however long the one
// before it waited; a peer that speaks within every timeout never trips one, however long
// the session; a write the peer does not read ends after the send's timeout.
#include "protocol/channel.h"
#include "tests/protocol/loopback_pair.h"

#include <boost/test/unit_test.hpp>

#include <asio/steady_timer.hpp>

namespace bp = baton::protocol;
using namespace std::chrono_literals;
using asio::ip::tcp;
using baton::test::run_pair;
using Clock = std::chrono::steady_clock;

namespace {

bp::Envelope heartbeat(std::uint64_t sequence) {
  bp::Envelope e;
  e.mutable_heartbeat()->set_sequence(sequence);
  return e;
}

asio::awaitable<void> pause(std::chrono::milliseconds how_long) {
  asio::steady_timer timer(co_await asio::this_coro::executor, how_long);
  co_await timer.async_wait(asio::use_awaitable);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(channel_deadlines)

// Twenty messages 100 ms apart, each receive allowed 600 ms (half a second to spare for a
// loaded machine): the session lasts more than three times the timeout, so the timer armed
// by the first receive wakes during a later one and must move on to that one's deadline
// rather than end the channel.
BOOST_AUTO_TEST_CASE(a_peer_that_speaks_within_every_timeout_never_times_out) {
  int received = 0;
  std::string error;
  run_pair(
      [&](tcp::socket s) -> asio::awaitable<void> {
        bp::Channel channel(std::move(s));
        try {
          for (; received < 20; ++received) co_await channel.receive(600ms);
        } catch (const std::exception& e) {
          error = e.what();
        }
      },
      [&](tcp::socket s) -> asio::awaitable<void> {
        bp::Channel channel(std::move(s));
        for (std::uint64_t i = 0; i < 20; ++i) {
          co_await pause(100ms);
          co_await channel.send(heartbeat(i), 5s);
        }
      });
  BOOST_TEST(received == 20, error);
}

// The first receive's 10 s deadline is armed when the second asks for 200 ms: the second
// must end after its own 200 ms, not the first's 10 s.
BOOST_AUTO_TEST_CASE(a_shorter_timeout_after_a_longer_one_applies_at_once) {
  std::string error;
  Clock::duration waited{};
  run_pair(
      [&](tcp::socket s) -> asio::awaitable<void> {
        bp::Channel channel(std::move(s));
        co_await channel.receive(10s);
        const auto start = Clock::now();
        try {
          co_await channel.receive(200ms);
          error = "no error";
        } catch (const std::exception& e) {
          error = e.what();
        }
        waited = Clock::now() - start;
      },
      [&](tcp::socket s) -> asio::awaitable<void> {
        bp::Channel channel(std::move(s));
        co_await channel.send(heartbeat(1), 5s);
        co_await pause(3s);  // silent, the connection open, past the second receive's timeout
      });
  BOOST_TEST(error.find("said nothing for 200 ms") != std::string::npos, error);
  // Had the first receive's 10 s deadline held, the peer's close at 3 s would have ended
  // the receive instead ("closed the connection"). A timer is never early:
  BOOST_TEST(waited >= 200ms);
}

// 64 MiB to a peer that reads nothing (a channel whose cap allows it): more than the
// sockets' buffers hold, so the write waits until its 300 ms are up.
BOOST_AUTO_TEST_CASE(a_write_the_peer_does_not_read_times_out) {
  std::string error;
  run_pair(
      [&](tcp::socket s) -> asio::awaitable<void> {
        co_await pause(3s);  // holds the connection, reads nothing
        s.close();
      },
      [&](tcp::socket s) -> asio::awaitable<void> {
        bp::Channel channel(std::move(s), 128u << 20);
        bp::Envelope e;
        e.mutable_refusal()->set_reason(std::string(64u << 20, 'x'));
        try {
          co_await channel.send(e, 300ms);
          error = "no error";
        } catch (const std::exception& x) {
          error = x.what();
        }
      });
  BOOST_TEST(error.find("timed out after 300 ms") != std::string::npos, error);
}

BOOST_AUTO_TEST_SUITE_END()
