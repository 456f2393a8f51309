// The coordinator's count of a kept plan's exchanges (coordinator/daemon/exchange_tally.h):
// done once every node told it ok, failed at the first node that did not, each node counted
// once, and the exchanges that never hear from every node forgotten beyond a bound.
#include "coordinator/daemon/exchange_tally.h"

#include <boost/test/unit_test.hpp>

namespace bc = baton::coordinator;
namespace bp = baton::protocol;

namespace {

bp::ExchangeReport told(std::uint64_t number, bool ok, double seconds, const std::string& error = "") {
  bp::ExchangeReport report;
  report.set_job("4");
  report.set_range(number);
  report.set_ok(ok);
  report.set_error(error);
  report.set_seconds(seconds);
  return report;
}

std::function<std::vector<std::string>()> nodes(std::vector<std::string> names) {
  return [names] { return names; };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(exchange_tally)

BOOST_AUTO_TEST_CASE(an_exchange_is_done_when_every_node_told_it_ok_and_failed_at_the_first_that_did_not) {
  bc::ExchangeTally tally;
  const auto abc = nodes({"a", "b", "c"});
  BOOST_TEST((tally.record("d", told(9, true, 0.25), abc) == bc::ExchangeTally::Outcome::not_a_member));
  tally.record("a", told(9, true, 0.25), abc);
  tally.record("b", told(9, true, 0.5), abc);
  tally.record("b", told(9, true, 0.5), abc);  // told twice: once
  BOOST_TEST(tally.done() == 0u);
  BOOST_TEST(!tally.last_seconds());
  BOOST_TEST((tally.record("c", told(9, true, 0.125), abc) == bc::ExchangeTally::Outcome::done));
  BOOST_TEST(tally.done() == 1u);
  BOOST_TEST(*tally.last_seconds() == 0.5);  // the slowest node's

  BOOST_TEST((tally.record("a", told(10, false, 0.1, "step 0: peer b closed the connection"), abc) ==
              bc::ExchangeTally::Outcome::failed));
  BOOST_TEST(tally.failed() == 1u);
  BOOST_TEST(tally.last_error() == "node a: step 0: peer b closed the connection");
  BOOST_TEST((tally.record("b", told(10, false, 0.1, "stopped"), abc) == bc::ExchangeTally::Outcome::pending));
  tally.record("c", told(10, true, 0.1), abc);
  BOOST_TEST(tally.failed() == 1u);  // one exchange, one failure
  BOOST_TEST(tally.done() == 1u);
  BOOST_TEST(tally.last_error() == "node a: step 0: peer b closed the connection");
}

BOOST_AUTO_TEST_CASE(exchanges_a_node_never_tells_are_forgotten_beyond_the_bound) {
  bc::ExchangeTally tally;
  const auto ab = nodes({"a", "b"});
  for (std::uint64_t n = 1; n <= bc::ExchangeTally::kMaxPending + 1; ++n) tally.record("a", told(n, true, 1), ab);
  tally.record("b", told(3, true, 1), ab);
  BOOST_TEST(tally.done() == 1u);
  // Exchange 1 was forgotten: b's report of it starts it afresh and does not end it.
  tally.record("b", told(1, true, 1), ab);
  BOOST_TEST(tally.done() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
