// The cap on connections that have not authenticated (admission/pending_connections.h):
// over a cap the oldest pending connection is dropped — of the same address when that
// address is over its share, else of all — and a released one never is.
#include "admission/pending_connections.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

namespace ad = baton::admission;

namespace {

// Admits a connection named `name` from `address`; its drop appends the name to `dropped`.
ad::PendingConnections::Ticket admit(ad::PendingConnections& pending, const std::string& address,
                                     const std::string& name, std::vector<std::string>& dropped) {
  return pending.admit(address, [&dropped, name] { dropped.push_back(name); });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pending_connections)

BOOST_AUTO_TEST_CASE(an_address_over_its_share_loses_its_own_oldest_connection) {
  ad::PendingConnections pending({.total = 10, .per_address = 2});
  std::vector<std::string> dropped;
  auto other = admit(pending, "10.0.0.9", "other", dropped);
  auto a1 = admit(pending, "10.0.0.1", "a1", dropped);
  auto a2 = admit(pending, "10.0.0.1", "a2", dropped);
  BOOST_TEST(dropped.empty());
  auto a3 = admit(pending, "10.0.0.1", "a3", dropped);
  BOOST_TEST(dropped == (std::vector<std::string>{"a1"}), boost::test_tools::per_element());
  BOOST_TEST(pending.size() == 3u);
  BOOST_TEST(pending.dropped() == 1u);
}

BOOST_AUTO_TEST_CASE(a_full_daemon_loses_its_oldest_connection_whatever_its_address) {
  ad::PendingConnections pending({.total = 3, .per_address = 3});
  std::vector<std::string> dropped;
  std::vector<ad::PendingConnections::Ticket> tickets;
  for (int i = 1; i <= 5; ++i) {
    tickets.push_back(admit(pending, "10.0.0." + std::to_string(i), "c" + std::to_string(i), dropped));
  }
  BOOST_TEST(dropped == (std::vector<std::string>{"c1", "c2"}), boost::test_tools::per_element());
  BOOST_TEST(pending.size() == 3u);
  tickets.clear();  // a dropped connection's ticket releases nothing twice
  BOOST_TEST(pending.size() == 0u);
  BOOST_TEST(dropped.size() == 2u);
}

BOOST_AUTO_TEST_CASE(an_authenticated_connection_no_longer_counts_and_is_never_dropped) {
  ad::PendingConnections pending({.total = 2, .per_address = 2});
  std::vector<std::string> dropped;
  auto first = admit(pending, "10.0.0.1", "first", dropped);
  auto second = admit(pending, "10.0.0.1", "second", dropped);
  first.release();  // it authenticated
  BOOST_TEST(pending.size() == 1u);
  auto third = admit(pending, "10.0.0.1", "third", dropped);
  BOOST_TEST(dropped.empty());
  auto moved = std::move(second);
  auto fourth = admit(pending, "10.0.0.1", "fourth", dropped);
  BOOST_TEST(dropped == (std::vector<std::string>{"second"}), boost::test_tools::per_element());
  moved.release();  // already dropped: nothing happens
  BOOST_TEST(pending.size() == 2u);
}

BOOST_AUTO_TEST_CASE(the_caps_follow_the_descriptor_limit) {
  const ad::PendingLimits ample = ad::limits_for(65536);
  BOOST_TEST(ample.total == 512u);
  BOOST_TEST(ample.per_address == 64u);
  const ad::PendingLimits usual = ad::limits_for(1024);  // a quarter of the descriptors at most
  BOOST_TEST(usual.total == 256u);
  BOOST_TEST(usual.per_address == 64u);
  const ad::PendingLimits tight = ad::limits_for(64);
  BOOST_TEST(tight.total == 16u);
  BOOST_TEST(tight.per_address == 4u);
  const ad::PendingLimits none = ad::limits_for(0);
  BOOST_TEST((none.total == 1u && none.per_address == 1u));
}

BOOST_AUTO_TEST_SUITE_END()
