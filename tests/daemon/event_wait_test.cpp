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

BOOST_AUTO_TEST_SUITE_END()
