// The data plane's refusal log (agent/rate_limited_log.h) on a fake clock: a burst gets
// through, a flood is counted and said with the next line of a later window.
#include "agent/rate_limited_log.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

namespace ba = baton::agent;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(rate_limited_log)

BOOST_AUTO_TEST_CASE(a_flood_is_held_back_counted_and_said_once_the_window_has_passed) {
  std::vector<std::string> lines;
  ba::RateLimitedLog log(3, 10s);
  log.set_sink([&](baton::log::Level level, std::string_view line) {
    BOOST_TEST((level == baton::log::Level::warning));
    lines.emplace_back(line);
  });
  const ba::RateLimitedLog::Clock::time_point t0{};
  for (int i = 0; i < 1000; ++i) log.write(baton::log::Level::warning, "forged " + std::to_string(i), t0 + 1ms * i);
  BOOST_TEST(lines == (std::vector<std::string>{"forged 0", "forged 1", "forged 2"}));
  BOOST_TEST(log.held_back() == 997u);
  log.write(baton::log::Level::warning, "forged again", t0 + 10s);
  BOOST_REQUIRE(lines.size() == 4u);
  BOOST_TEST(lines.back() == "forged again (and 997 more like it not logged)");
  BOOST_TEST(log.held_back() == 0u);
  log.write(baton::log::Level::warning, "next", t0 + 10s + 1ms);
  BOOST_TEST(lines.back() == "next");
}

BOOST_AUTO_TEST_CASE(without_a_sink_nothing_is_counted) {
  ba::RateLimitedLog log(1, 1s);
  for (int i = 0; i < 5; ++i) log.write(baton::log::Level::warning, "x");
  BOOST_TEST(log.held_back() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
