// The notifier against a real NOTIFY_SOCKET datagram socket: what systemd would read.
#include "systemd/notifier.h"
#include "tests/systemd/notify_socket.h"

#include <asio/io_context.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <string>

using baton::systemd::Notifier;
using baton::test::has_line;
using baton::test::NotifySocket;
using namespace std::chrono_literals;

namespace {

// NOTIFY_SOCKET (and WATCHDOG_USEC when given) set for one test, as systemd sets them.
struct Environment {
  NotifySocket socket;
  explicit Environment(const char* watchdog_usec = nullptr) {
    ::setenv("NOTIFY_SOCKET", socket.path().c_str(), 1);
    if (watchdog_usec) ::setenv("WATCHDOG_USEC", watchdog_usec, 1);
    else ::unsetenv("WATCHDOG_USEC");
    ::unsetenv("WATCHDOG_PID");
  }
  ~Environment() {
    ::unsetenv("NOTIFY_SOCKET");
    ::unsetenv("WATCHDOG_USEC");
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(notifier)

BOOST_AUTO_TEST_CASE(ready_status_reload_and_stopping_reach_the_socket_as_systemd_expects) {
  Environment env;
  asio::io_context io;
  Notifier notifier(io.get_executor());
  BOOST_TEST(notifier.enabled());
  notifier.ready("idle");
  const auto ready = env.socket.receive(1s);
  BOOST_REQUIRE(ready);
  BOOST_TEST(has_line(*ready, "READY=1"));
  BOOST_TEST(has_line(*ready, "STATUS=idle"));

  notifier.ready("again");  // READY once only
  notifier.status("idle");  // unchanged: nothing sent
  notifier.status("job 7 step 3/10");
  const auto status = env.socket.receive(1s);
  BOOST_REQUIRE(status);
  BOOST_TEST(*status == "STATUS=job 7 step 3/10");

  notifier.reloading();
  const auto reloading = env.socket.receive(1s);
  BOOST_REQUIRE(reloading);
  BOOST_TEST(has_line(*reloading, "RELOADING=1"));
  notifier.reloaded("idle");
  const auto reloaded = env.socket.receive(1s);
  BOOST_REQUIRE(reloaded);
  BOOST_TEST(has_line(*reloaded, "READY=1"));

  notifier.stopping("stopping: job 7 step 3/10");
  const auto stopping = env.socket.receive(1s);
  BOOST_REQUIRE(stopping);
  BOOST_TEST(has_line(*stopping, "STOPPING=1"));
  BOOST_TEST(has_line(*stopping, "STATUS=stopping: job 7 step 3/10"));
  // Nothing else was sent: the next datagram is the one sent now (a datagram socket of the
  // unix domain keeps their order), with no wait for an absence.
  notifier.status("the end of the test");
  const auto next = env.socket.receive(1s);
  BOOST_REQUIRE(next);
  BOOST_TEST(*next == "STATUS=the end of the test", "something else was sent: " << *next);
}

BOOST_AUTO_TEST_CASE(the_watchdog_pings_at_half_the_interval_from_the_event_loop) {
  Environment env("200000");  // WatchdogSec=200ms
  asio::io_context io;
  Notifier notifier(io.get_executor());
  BOOST_TEST(notifier.watchdog_interval() == 200ms);
  BOOST_TEST(notifier.ping_interval() == 100ms);
  const auto start = std::chrono::steady_clock::now();
  notifier.start_watchdog();
  const auto first = env.socket.receive(1s);  // at once
  BOOST_REQUIRE(first);
  BOOST_TEST(*first == "WATCHDOG=1");
  for (int turn = 1; turn <= 3; ++turn) {
    // No turn of the event loop, no ping (a stuck daemon is what the watchdog is for): the
    // next datagram is the one sent now.
    notifier.status("before turn " + std::to_string(turn));
    const auto before = env.socket.receive(1s);
    BOOST_REQUIRE(before);
    BOOST_TEST(*before == "STATUS=before turn " + std::to_string(turn), "sent outside the event loop: " << *before);
    // One turn: the watchdog timer's handler, the only work pending, sends the next ping.
    BOOST_TEST(io.run_one() == 1u);
    const auto ping = env.socket.receive(1s);
    BOOST_REQUIRE(ping);
    BOOST_TEST(*ping == "WATCHDOG=1");
  }
  // A real timer is never early, so this lower bound holds however loaded the machine:
  // the three turns waited for the ping interval each.
  BOOST_TEST((std::chrono::steady_clock::now() - start >= 3 * notifier.ping_interval()));
}

BOOST_AUTO_TEST_CASE(a_watchdog_meant_for_another_process_is_not_fed) {
  Environment env("200000");
  ::setenv("WATCHDOG_PID", "1", 1);  // systemd names the main process; we are not it
  asio::io_context io;
  Notifier notifier(io.get_executor());
  ::unsetenv("WATCHDOG_PID");
  BOOST_TEST(notifier.watchdog_interval().count() == 0);
  notifier.start_watchdog();
  io.poll();
  BOOST_TEST(io.stopped(), "a watchdog timer is armed");
  // Nothing was sent: the next datagram is the one sent now.
  notifier.status("the end of the test");
  const auto next = env.socket.receive(1s);
  BOOST_REQUIRE(next);
  BOOST_TEST(*next == "STATUS=the end of the test", "something else was sent: " << *next);
}

BOOST_AUTO_TEST_CASE(outside_systemd_nothing_is_sent_and_nothing_fails) {
  ::unsetenv("NOTIFY_SOCKET");
  ::unsetenv("WATCHDOG_USEC");
  asio::io_context io;
  Notifier notifier(io.get_executor());
  BOOST_TEST(!notifier.enabled());
  BOOST_TEST(notifier.watchdog_interval().count() == 0);
  notifier.ready("idle");
  notifier.start_watchdog();
  notifier.stopping("stopping");
  BOOST_TEST(io.poll() == 0u);
  BOOST_TEST(io.stopped(), "no watchdog timer without WATCHDOG_USEC");
}

BOOST_AUTO_TEST_SUITE_END()
