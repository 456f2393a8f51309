// Procedure Coloring: Theorem 3.1 on random instances, Theorem 3.2 on Example 3.1.
#include "coordinator/schedule/buffered_multicast/coloring.h"
#include "color_structure.h"
#include "coordinator/schedule/buffered_multicast/examples.h"
#include "coordinator/schedule/buffered_multicast/validator.h"
#include "error/error.h"
#include "random_shapes.h"

#include <boost/test/unit_test.hpp>

#include <stdexcept>

namespace bm = baton::schedule::buffered_multicast;

BOOST_AUTO_TEST_SUITE(buffered_coloring)

// Theorem 3.1: no buffer overflows and the schedule ends by ⌈d/l⌉·(d + l − 1). The rounds
// have the paper's form: color (i, j) goes in round (j − 1)·(d + l − 1) + i, i is the
// message's bundle label, and no processor gets more than l edges of one value j.
BOOST_AUTO_TEST_CASE(random_instances_never_overflow_and_meet_theorem_3_1) {
  for (const bm::RandomInstanceOptions& shape : bm::test::random_shapes(1500, 31)) {
    const bm::Problem p = bm::random_instance(shape);
    const std::size_t d = bm::degree(p);
    const std::size_t l = p.buffers;
    const bm::Schedule s = bm::coloring(p);
    const bm::Validation v = bm::validate(p, s);
    BOOST_TEST_REQUIRE(v.ok(), v.summary() << " (seed " << shape.seed << ")");
    BOOST_TEST_REQUIRE(v.rounds <= bm::coloring_round_bound(d, l), "seed " << shape.seed);

    const std::string shape_error = bm::test::color_shape_error(p, s, {.period = d + l - 1, .ordered = false});
    BOOST_TEST_REQUIRE(shape_error.empty(), shape_error << " (seed " << shape.seed << ")");
  }
}

// Theorem 3.2: on Example 3.1, with the d! copies of every receiver taking their incoming
// edges in all d! orders, Coloring needs exactly d²/l − d/l + d rounds and some processor
// takes a message in every one of them.
BOOST_AUTO_TEST_CASE(example_3_1_is_tight_for_coloring_theorem_3_2) {
  for (std::size_t d = 2; d <= 4; ++d) {
    for (std::size_t l = 1; l <= d; ++l) {
      if (d % l != 0) continue;
      const bm::TightInstance tight = bm::example_3_1(d, l);
      const bm::Schedule s = bm::coloring(tight.problem, {.incoming_order = tight.incoming_order});
      const bm::Validation v = bm::validate(tight.problem, s);
      BOOST_TEST_CONTEXT("d = " << d << ", l = " << l) {
        BOOST_TEST(v.ok(), v.summary());
        BOOST_TEST(v.rounds == d * d / l - d / l + d);
        BOOST_TEST(v.busy_rounds == v.rounds);
        BOOST_TEST(v.max_held == l);  // some buffer fills up completely
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(bad_problems_and_orders_are_rejected) {
  bm::Problem p{.processors = 3, .buffers = 1, .messages = {{.source = 0, .destinations = {1, 2}}}};
  const std::vector<std::size_t> too_short{0};
  BOOST_CHECK_THROW(bm::coloring(p, {.incoming_order = too_short}), baton::error::InvalidInput);
  p.messages[0].destinations = {1, 1};
  BOOST_CHECK_THROW(bm::coloring(p), baton::error::InvalidInput);
  p.messages[0].destinations = {1, 2};
  p.buffers = 0;
  BOOST_CHECK_THROW(bm::coloring(p), baton::error::InvalidInput);
}

BOOST_AUTO_TEST_SUITE_END()
