// The steps both procedures share: bundle order at the senders, values at the receivers,
// and colors to rounds.
#include "coordinator/schedule/buffered_multicast/bundle_order.h"
#include "coordinator/schedule/buffered_multicast/color_rounds.h"
#include "coordinator/schedule/buffered_multicast/incoming_values.h"
#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <vector>

namespace bm = baton::schedule::buffered_multicast;
using Sizes = std::vector<std::size_t>;

namespace {

// Processor 0 holds messages 0, 2, 3; processor 1 holds message 1. Edges (input order):
// 0: m0→2, 1: m0→3, 2: m1→2, 3: m2→2, 4: m2→3, 5: m3→2.
bm::Problem small(std::size_t buffers) {
  return bm::Problem{.processors = 4,
                     .buffers = buffers,
                     .messages = {{.source = 0, .destinations = {2, 3}},
                                  {.source = 1, .destinations = {2}},
                                  {.source = 0, .destinations = {2, 3}},
                                  {.source = 0, .destinations = {2}}}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(buffered_coloring_steps)

BOOST_AUTO_TEST_CASE(bundles_are_numbered_per_source_from_one) {
  BOOST_TEST(bm::bundle_order(small(1)) == (Sizes{1, 1, 2, 3}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(values_go_up_every_l_incoming_edges) {
  const Sizes input_order{0, 1, 2, 3, 4, 5};
  // Processor 2 receives edges 0, 2, 3, 5; processor 3 receives edges 1, 4.
  BOOST_TEST(bm::incoming_values(small(1), input_order) == (Sizes{1, 1, 2, 3, 2, 4}), boost::test_tools::per_element());
  BOOST_TEST(bm::incoming_values(small(2), input_order) == (Sizes{1, 1, 1, 2, 1, 2}), boost::test_tools::per_element());
  BOOST_TEST(bm::incoming_values(small(3), input_order) == (Sizes{1, 1, 1, 1, 1, 2}), boost::test_tools::per_element());
  // Another order: processor 2 sees 5, 3, 2, 0.
  const Sizes reversed{5, 4, 3, 2, 1, 0};
  BOOST_TEST(bm::incoming_values(small(2), reversed) == (Sizes{2, 1, 2, 1, 1, 1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_order_must_list_every_edge_once) {
  BOOST_CHECK_THROW(bm::incoming_values(small(1), Sizes{0, 1, 2, 3, 4}), baton::error::InvalidInput);
  BOOST_CHECK_THROW(bm::incoming_values(small(1), Sizes{0, 1, 2, 3, 4, 4}), baton::error::InvalidInput);
  BOOST_CHECK_THROW(bm::incoming_values(small(1), Sizes{0, 1, 2, 3, 4, 6}), baton::error::InvalidInput);
}

BOOST_AUTO_TEST_CASE(color_i_j_goes_in_round_j_minus_1_times_period_plus_i) {
  const bm::EdgeColoring colors{.bundle = {1, 1, 2, 3}, .value = {1, 2, 1, 1, 1, 2}};
  const bm::Schedule s = bm::schedule_by_color(small(1), colors, 3);
  // m0: (1,1)→2 round 1, (1,2)→3 round 4; m1: (1,1) round 1; m2: (2,1)→{2,3} round 2;
  // m3: (3,2) round 6. Listed by round, then message.
  BOOST_REQUIRE_EQUAL(s.sends.size(), 5u);
  const std::vector<std::pair<std::size_t, std::uint64_t>> expected{{0, 1}, {1, 1}, {2, 2}, {0, 4}, {3, 6}};
  for (std::size_t k = 0; k < expected.size(); ++k) {
    BOOST_TEST(s.sends[k].message == expected[k].first);
    BOOST_TEST(s.sends[k].round == expected[k].second);
  }
  BOOST_TEST(s.sends[2].destinations == (std::vector<bm::ProcessorId>{2, 3}), boost::test_tools::per_element());
  BOOST_TEST(s.sends[3].destinations == (std::vector<bm::ProcessorId>{3}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(colors_that_do_not_fit_are_rejected) {
  const bm::Problem p = small(1);
  BOOST_CHECK_THROW(bm::schedule_by_color(p, {.bundle = {1, 1, 2}, .value = {1, 1, 1, 1, 1, 1}}, 3),
                    baton::error::InvalidInput);
  BOOST_CHECK_THROW(bm::schedule_by_color(p, {.bundle = {1, 1, 2, 3}, .value = {1, 1, 0, 1, 1, 1}}, 3),
                    baton::error::InvalidInput);
  // Bundle 3 with period 2 would share round 3 with color (1, 2).
  BOOST_CHECK_THROW(bm::schedule_by_color(p, {.bundle = {1, 1, 2, 3}, .value = {1, 1, 1, 1, 1, 1}}, 2),
                    baton::error::InvalidInput);
}

BOOST_AUTO_TEST_SUITE_END()
