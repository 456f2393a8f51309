// EventWait (coordinator/daemon/event_wait.h) with several waiters at once, as every
// running job's run waits on it: a notify wakes each, each looks at its own condition, and a
// deadline ends one wait without touching the others.
#include "coordinator/daemon/event_wait.h"

#include "tests/daemon/manual_clock.h"

#include <boost/test/unit_test.hpp>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>

namespace bc = baton::coordinator;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(event_wait)

BOOST_AUTO_TEST_CASE(every_waiter_wakes_on_its_own_condition_and_times_out_alone) {
  asio::io_context io;
  baton::test::ManualClock clock;
  bc::EventWait events(io.get_executor(), clock);
  bool a = false, b = false;
  std::optional<bool> got_a, got_b, got_c;
  const auto wait = [&](bool& flag, std::optional<bool>& got, bc::Clock::time_point deadline) {
    asio::co_spawn(
        io, [&, deadline]() -> asio::awaitable<void> { got = co_await events.until([&] { return flag; }, deadline); },
        asio::detached);
  };
  bool never = false;
  wait(a, got_a, bc::Clock::time_point::max());
  wait(b, got_b, bc::Clock::time_point::max());
  wait(never, got_c, clock.now() + 5s);
  io.poll();
  BOOST_TEST(events.waiters() == 3u);
  a = true;
  events.notify();
  io.poll();
  BOOST_TEST((got_a == true));
  BOOST_TEST(!got_b.has_value());
  BOOST_TEST(!got_c.has_value());
  clock.advance(5s);  // the third one's deadline, not the second's
  io.poll();
  BOOST_TEST((got_c == false));
  BOOST_TEST(!got_b.has_value());
  b = true;
  events.notify();
  io.poll();
  BOOST_TEST((got_b == true));
  BOOST_TEST(events.waiters() == 0u);
}

// A condition that throws ends the wait with its exception, and the waiter's timer goes
// with it (a left-behind one would be cancelled by every notify() for ever after).
BOOST_AUTO_TEST_CASE(a_wait_ended_by_a_throwing_condition_leaves_no_waiter_behind) {
  asio::io_context io;
  baton::test::ManualClock clock;
  bc::EventWait events(io.get_executor(), clock);
  bool fail = false;
  std::optional<std::string> thrown;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        try {
          co_await events.until(
              [&] {
                if (fail) throw std::runtime_error("gone");
                return false;
              },
              bc::Clock::time_point::max());
        } catch (const std::runtime_error& e) {
          thrown = e.what();
        }
      },
      asio::detached);
  io.poll();
  BOOST_TEST(events.waiters() == 1u);
  fail = true;
  events.notify();
  io.poll();
  BOOST_TEST((thrown == std::string("gone")));
  BOOST_TEST(events.waiters() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
