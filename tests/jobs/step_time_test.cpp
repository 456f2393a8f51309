// The one step-time model (coordinator/jobs/step_time.h): a scheduled step is β + its
// longest flow at d; flows that share a node or fill the backbone take longer.
#include "coordinator/jobs/step_time.h"

#include <boost/test/unit_test.hpp>

namespace bj = baton::jobs;
using boost::test_tools::tolerance;

BOOST_AUTO_TEST_SUITE(step_time)

BOOST_AUTO_TEST_CASE(a_scheduled_step_is_its_start_up_and_its_longest_flow_at_d) {
  // Two flows of 4 MB and 2 MB at 1 MB/s within a 3 MB/s backbone: 0.01 + 4 s.
  BOOST_TEST(bj::step_seconds(0.01, 1e6, 3e6, {.longest_flow = 4e6, .busiest_node = 4e6, .bytes = 6e6}) == 4.01,
             tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(shared_links_and_a_full_backbone_take_longer) {
  // One sender's three flows of 1 MB each share its link: 3 s, not 1.
  BOOST_TEST(bj::step_seconds(0, 1e6, 3e6, {.longest_flow = 1e6, .busiest_node = 3e6, .bytes = 3e6}) == 3.0,
             tolerance(1e-12));
  // Six flows of 1 MB through a 2 MB/s backbone: 3 s.
  BOOST_TEST(bj::step_seconds(0.5, 1e6, 2e6, {.longest_flow = 1e6, .busiest_node = 1e6, .bytes = 6e6}) == 3.5,
             tolerance(1e-12));
}

BOOST_AUTO_TEST_SUITE_END()
