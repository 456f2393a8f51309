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

}  // namespace

BOOST_AUTO_TEST_SUITE(exchange_tally)

BOOST_AUTO_TEST_CASE(an_exchange_is_done_when_every_node_told_it_ok_and_failed_at_the_first_that_did_not) {
  bc::ExchangeTally tally;
  tally.record("a", told(9, true, 0.25), 3);
  tally.record("b", told(9, true, 0.5), 3);
  tally.record("b", told(9, true, 0.5), 3);  // told twice: once
  BOOST_TEST(tally.done() == 0u);
  BOOST_TEST(!tally.last_seconds());
  BOOST_TEST((tally.record("c", told(9, true, 0.125), 3) == bc::ExchangeTally::Outcome::done));
  BOOST_TEST(tally.done() == 1u);
  BOOST_TEST(*tally.last_seconds() == 0.5);  // the slowest node's

  BOOST_TEST((tally.record("a", told(10, false, 0.1, "step 0: peer b closed the connection"), 3) ==
              bc::ExchangeTally::Outcome::failed));
  BOOST_TEST(tally.failed() == 1u);
  BOOST_TEST(tally.last_error() == "node a: step 0: peer b closed the connection");
  BOOST_TEST((tally.record("b", told(10, false, 0.1, "stopped"), 3) == bc::ExchangeTally::Outcome::pending));
  tally.record("c", told(10, true, 0.1), 3);
  BOOST_TEST(tally.failed() == 1u);  // one exchange, one failure
  BOOST_TEST(tally.done() == 1u);
  BOOST_TEST(tally.last_error() == "node a: step 0: peer b closed the connection");
}

BOOST_AUTO_TEST_CASE(exchanges_a_node_never_tells_are_forgotten_beyond_the_bound) {
  bc::ExchangeTally tally;
  for (std::uint64_t n = 1; n <= bc::ExchangeTally::kMaxPending + 1; ++n) tally.record("a", told(n, true, 1), 2);
  tally.record("b", told(3, true, 1), 2);
  BOOST_TEST(tally.done() == 1u);
  // Exchange 1 was forgotten: b's report of it starts it afresh and does not end it.
  tally.record("b", told(1, true, 1), 2);
  BOOST_TEST(tally.done() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
