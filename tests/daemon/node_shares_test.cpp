// The share of each node's rate each running job gets (coordinator/daemon/node_shares.h).
#include "coordinator/daemon/node_shares.h"

#include <boost/test/unit_test.hpp>

namespace bc = baton::coordinator;

namespace {
constexpr double kExact = 1e-12;  // sums of a few weights: exact to rounding
}  // namespace

BOOST_AUTO_TEST_SUITE(node_shares)

BOOST_AUTO_TEST_CASE(a_job_alone_has_each_of_its_nodes_whole) {
  const auto shares = bc::node_shares({{.id = 1, .weight = 3, .nodes = {"s0", "r0"}}});
  BOOST_TEST(shares.at(1).nodes.at("s0") == 1.0);
  BOOST_TEST(shares.at(1).nodes.at("r0") == 1.0);
  BOOST_TEST(shares.at(1).pace == 1.0);
}

BOOST_AUTO_TEST_CASE(jobs_on_the_same_nodes_share_them_by_weight) {
  const auto equal =
      bc::node_shares({{.id = 1, .weight = 1, .nodes = {"s0", "r0"}}, {.id = 2, .weight = 1, .nodes = {"s0", "r0"}}});
  BOOST_TEST(equal.at(1).pace == 0.5, boost::test_tools::tolerance(kExact));
  BOOST_TEST(equal.at(2).nodes.at("r0") == 0.5, boost::test_tools::tolerance(kExact));
  const auto three_to_one =
      bc::node_shares({{.id = 1, .weight = 3, .nodes = {"s0", "r0"}}, {.id = 2, .weight = 1, .nodes = {"s0", "r0"}}});
  BOOST_TEST(three_to_one.at(1).pace == 0.75, boost::test_tools::tolerance(kExact));
  BOOST_TEST(three_to_one.at(2).pace == 0.25, boost::test_tools::tolerance(kExact));
}

BOOST_AUTO_TEST_CASE(a_job_is_paced_at_its_smallest_share_over_its_nodes) {
  // Job 1 is alone on s1 and shares s0 with jobs 2 and 3: a third of s0, all of s1.
  const auto shares = bc::node_shares({{.id = 1, .weight = 1, .nodes = {"s0", "s1"}},
                                       {.id = 2, .weight = 1, .nodes = {"s0"}},
                                       {.id = 3, .weight = 1, .nodes = {"s0", "r9"}}});
  BOOST_TEST(shares.at(1).nodes.at("s0") == 1.0 / 3, boost::test_tools::tolerance(kExact));
  BOOST_TEST(shares.at(1).nodes.at("s1") == 1.0);
  BOOST_TEST(shares.at(1).pace == 1.0 / 3, boost::test_tools::tolerance(kExact));
  BOOST_TEST(shares.at(3).nodes.at("r9") == 1.0);
}

BOOST_AUTO_TEST_CASE(a_node_listed_twice_in_a_job_counts_its_weight_once) {
  const auto shares =
      bc::node_shares({{.id = 1, .weight = 1, .nodes = {"a", "a"}}, {.id = 2, .weight = 1, .nodes = {"a"}}});
  BOOST_TEST(shares.at(1).nodes.at("a") == 0.5, boost::test_tools::tolerance(kExact));
  BOOST_TEST(shares.at(2).nodes.at("a") == 0.5, boost::test_tools::tolerance(kExact));
}

BOOST_AUTO_TEST_SUITE_END()
