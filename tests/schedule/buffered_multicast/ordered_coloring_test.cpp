// Procedure Ordered-Coloring: Theorem 3.3 on thousands of random instances and its tight
// behaviour on the paper's examples.
#include "coordinator/schedule/buffered_multicast/ordered_coloring.h"
#include "color_structure.h"
#include "coordinator/schedule/buffered_multicast/coloring.h"
#include "coordinator/schedule/buffered_multicast/examples.h"
#include "coordinator/schedule/buffered_multicast/validator.h"
#include "random_shapes.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace bm = baton::schedule::buffered_multicast;

namespace {

// The paper's shape of an Ordered-Coloring schedule (color_structure.h).
void check_ordered_structure(const bm::Problem& p, const bm::Schedule& s) {
  const std::string error = bm::test::color_shape_error(p, s, {.period = bm::degree(p), .ordered = true});
  BOOST_TEST_REQUIRE(error.empty(), error);
}

// What the proof of Theorem 3.3 predicts on Examples 3.1 and 3.2, where every receiver has
// exactly d edges: the receiver whose d edges all come from bundles labelled d gets its last
// value group, of r = d − (⌈d/l⌉ − 1)·l edges, in round d·⌈d/l⌉ and needs r − 1 more rounds
// to drain. When l divides d, r = l and this is the bound d²/l + l − 1.
std::uint64_t predicted_rounds(std::size_t d, std::size_t l) {
  const std::size_t groups = (d + l - 1) / l;
  const std::size_t last_group = d - (groups - 1) * l;
  return d * groups + last_group - 1;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(buffered_ordered_coloring)

// Theorem 3.3: no overflow and at most d·⌈d/l⌉ + l − 1 rounds, on 3000 random instances of
// many shapes. Every schedule also needs at least d rounds (some processor sends or takes d
// messages, one per round), which the simulation must agree with.
BOOST_AUTO_TEST_CASE(random_instances_never_overflow_and_meet_theorem_3_3) {
  std::size_t reached_bound = 0;
  for (const bm::RandomInstanceOptions& shape : bm::test::random_shapes(3000, 33)) {
    const bm::Problem p = bm::random_instance(shape);
    const std::size_t d = bm::degree(p);
    const bm::Schedule s = bm::ordered_coloring(p);
    const bm::Validation v = bm::validate(p, s);
    BOOST_TEST_REQUIRE(v.ok(), v.summary() << " (seed " << shape.seed << ")");
    BOOST_TEST_REQUIRE(v.rounds <= bm::round_bound(d, p.buffers), "seed " << shape.seed);
    BOOST_TEST_REQUIRE(v.rounds >= d, "seed " << shape.seed);
    check_ordered_structure(p, s);
    reached_bound += v.rounds == bm::round_bound(d, p.buffers) ? 1 : 0;
  }
  // The bound is not only a worst case: random instances meet it exactly (193 of these 3000).
  BOOST_TEST_MESSAGE(reached_bound << " of 3000 random instances reach the bound");
  BOOST_TEST(reached_bound > 0u);
}

// The overlap is safe, and tight: on Example 3.1 (d ≤ 4) and Example 3.2 (d ≤ 5) the
// schedule takes exactly the predicted number of rounds for every l from 1 to d + 2, which
// is d²/l + l − 1 when l divides d.
BOOST_AUTO_TEST_CASE(examples_3_1_and_3_2_reach_the_bound) {
  for (std::size_t d = 2; d <= 5; ++d) {
    for (std::size_t l = 1; l <= d + 2; ++l) {
      BOOST_TEST_CONTEXT("d = " << d << ", l = " << l) {
        const bm::Problem p = bm::example_3_2(d, l);
        const bm::Schedule s = bm::ordered_coloring(p);
        const bm::Validation v = bm::validate(p, s);
        BOOST_TEST(v.ok(), v.summary());
        BOOST_TEST(v.rounds == predicted_rounds(d, l));
        if (d % l == 0) BOOST_TEST(v.rounds == d * d / l + l - 1);
        check_ordered_structure(p, s);
        if (d <= 4) {
          const bm::Problem p31 = bm::example_3_1(d, l).problem;
          const bm::Validation v31 = bm::validate(p31, bm::ordered_coloring(p31));
          BOOST_TEST(v31.ok(), v31.summary());
          BOOST_TEST(v31.rounds == predicted_rounds(d, l));
          // Every color (i, j) is used on Example 3.1, so no round is idle.
          BOOST_TEST(v31.busy_rounds == v31.rounds);
        }
      }
    }
  }
}

// l = 1 gives the d² of multimessage multicasting without buffers; l = d gives 2d − 1,
// the lower bound the paper proves on Example 3.2; more buffers than d do not help.
BOOST_AUTO_TEST_CASE(one_buffer_gives_d_squared_and_d_buffers_give_2d_minus_1) {
  for (std::size_t d = 2; d <= 5; ++d) {
    BOOST_TEST_CONTEXT("d = " << d) {
      const bm::Problem one = bm::example_3_2(d, 1);
      BOOST_TEST(bm::validate(one, bm::ordered_coloring(one)).rounds == d * d);
      const bm::Problem all = bm::example_3_2(d, d);
      BOOST_TEST(bm::validate(all, bm::ordered_coloring(all)).rounds == 2 * d - 1);
      const bm::Problem more = bm::example_3_2(d, 3 * d);
      BOOST_TEST(bm::validate(more, bm::ordered_coloring(more)).rounds == 2 * d - 1);
    }
  }
}

// "both procedures generate a solution with identical total communication time in the
// extreme cases, i.e., when l = 1 and l = d"; in between, Ordered-Coloring is faster on
// the tight instance (d = 4, l = 2: 9 rounds against 10).
BOOST_AUTO_TEST_CASE(coloring_and_ordered_coloring_agree_at_the_extremes) {
  for (std::size_t d = 2; d <= 4; ++d) {
    for (const std::size_t l : {std::size_t{1}, d}) {
      const bm::TightInstance tight = bm::example_3_1(d, l);
      const auto plain =
          bm::validate(tight.problem, bm::coloring(tight.problem, {.incoming_order = tight.incoming_order}));
      const auto ordered = bm::validate(tight.problem, bm::ordered_coloring(tight.problem));
      BOOST_TEST(plain.rounds == ordered.rounds, "d = " << d << ", l = " << l);
    }
  }
  const bm::TightInstance tight = bm::example_3_1(4, 2);
  BOOST_TEST(
      bm::validate(tight.problem, bm::coloring(tight.problem, {.incoming_order = tight.incoming_order})).rounds == 10u);
  BOOST_TEST(bm::validate(tight.problem, bm::ordered_coloring(tight.problem)).rounds == 9u);
}

BOOST_AUTO_TEST_CASE(no_messages_no_sends) {
  const bm::Problem p{.processors = 3, .buffers = 2, .messages = {}};
  BOOST_TEST(bm::ordered_coloring(p).sends.empty());
  BOOST_TEST(bm::validate(p, bm::ordered_coloring(p)).rounds == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
