// Problem checks, the degree d and the two bounds of Section 3.1.
#include "coordinator/schedule/buffered_multicast/problem.h"
#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <stdexcept>

namespace bm = baton::schedule::buffered_multicast;

namespace {

bm::Problem two_messages() {
  return bm::Problem{.processors = 4,
                     .buffers = 1,
                     .messages = {{.source = 0, .destinations = {1, 2}}, {.source = 3, .destinations = {2}}}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(buffered_problem)

BOOST_AUTO_TEST_CASE(check_accepts_well_formed_and_empty_problems) {
  BOOST_CHECK_NO_THROW(bm::check(two_messages()));
  BOOST_CHECK_NO_THROW(bm::check(bm::Problem{.processors = 3, .buffers = 2, .messages = {}}));
}

BOOST_AUTO_TEST_CASE(check_rejects_every_malformed_field) {
  bm::Problem p = two_messages();
  p.buffers = 0;
  BOOST_CHECK_THROW(bm::check(p), baton::error::InvalidInput);
  p = two_messages();
  p.messages[1].source = 4;
  BOOST_CHECK_THROW(bm::check(p), baton::error::InvalidInput);
  p = two_messages();
  p.messages[0].destinations = {1, 4};
  BOOST_CHECK_THROW(bm::check(p), baton::error::InvalidInput);
  p = two_messages();
  p.messages[0].destinations = {1, 0};  // its own source
  BOOST_CHECK_THROW(bm::check(p), baton::error::InvalidInput);
  p = two_messages();
  p.messages[0].destinations = {2, 1, 2};
  BOOST_CHECK_THROW(bm::check(p), baton::error::InvalidInput);
  p = two_messages();
  p.messages[1].destinations = {};
  BOOST_CHECK_THROW(bm::check(p), baton::error::InvalidInput);
}

BOOST_AUTO_TEST_CASE(degree_is_the_most_messages_sent_or_received) {
  bm::Problem p = two_messages();
  BOOST_TEST(bm::degree(p) == 2u);  // processor 2 receives two
  p.messages.push_back({.source = 0, .destinations = {3}});
  p.messages.push_back({.source = 0, .destinations = {3}});
  BOOST_TEST(bm::degree(p) == 3u);  // processor 0 sends three
  BOOST_TEST(bm::edge_count(p) == 5u);
  BOOST_TEST(bm::edge_offsets(p) == (std::vector<std::size_t>{0, 2, 3, 4, 5}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(ordered_coloring_bound_is_d_ceil_d_over_l_plus_l_minus_1) {
  for (std::size_t d = 1; d <= 12; ++d) {
    BOOST_TEST(bm::round_bound(d, 1) == d * d);      // l = 1: d², the MMC bound
    BOOST_TEST(bm::round_bound(d, d) == 2 * d - 1);  // l = d: 2d − 1
    if (d % 2 == 0) {
      BOOST_TEST(bm::round_bound(d, d / 2) == 2 * d + d / 2 - 1);  // l = d/2
    }
  }
  BOOST_TEST(bm::round_bound(3, 2) == 7u);   // docs/formats.md's example: 3·2 + 1
  BOOST_TEST(bm::round_bound(5, 2) == 16u);  // 5·3 + 1 when l does not divide d
  BOOST_TEST(bm::round_bound(3, 5) == 7u);   // l > d: 3·1 + 4
  BOOST_TEST(bm::round_bound(0, 4) == 3u);   // the formula taken literally
  BOOST_CHECK_THROW(bm::round_bound(3, 0), baton::error::InvalidInput);
}

BOOST_AUTO_TEST_CASE(coloring_bound_is_d2_over_l_minus_d_over_l_plus_d) {
  for (std::size_t d = 1; d <= 12; ++d) {
    for (std::size_t l = 1; l <= d; ++l) {
      if (d % l != 0) continue;
      BOOST_TEST(bm::coloring_round_bound(d, l) == d * d / l - d / l + d);
    }
    // "both procedures generate a solution with identical total communication time in the
    // extreme cases, i.e., when l = 1 and l = d"
    BOOST_TEST(bm::coloring_round_bound(d, 1) == bm::round_bound(d, 1));
    BOOST_TEST(bm::coloring_round_bound(d, d) == bm::round_bound(d, d));
  }
  BOOST_TEST(bm::coloring_round_bound(4, 2) == 10u);
  BOOST_TEST(bm::round_bound(4, 2) == 9u);
  BOOST_TEST(bm::coloring_round_bound(0, 3) == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
