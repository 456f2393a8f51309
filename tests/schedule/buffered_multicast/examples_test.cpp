// The instance builders: the paper's Examples 3.1 and 3.2 and the random generator.
#include "coordinator/schedule/buffered_multicast/examples.h"
#include "coordinator/schedule/buffered_multicast/random_instance.h"
#include "error/error.h"
#include "random_shapes.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace bm = baton::schedule::buffered_multicast;

namespace {

// For every receiver, the (sender, bundle) it hears from, in sender order.
std::vector<std::vector<std::size_t>> bundles_heard(const bm::Problem& p, std::size_t d) {
  std::vector<std::vector<std::size_t>> heard(p.processors, std::vector<std::size_t>(d, 0));
  for (std::size_t m = 0; m < p.messages.size(); ++m) {
    for (const bm::ProcessorId q : p.messages[m].destinations) heard[q][m / d] = m % d + 1;
  }
  return heard;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(buffered_examples)

BOOST_AUTO_TEST_CASE(example_3_2_has_one_receiver_per_tuple_of_bundles) {
  for (std::size_t d = 2; d <= 4; ++d) {
    const bm::Problem p = bm::example_3_2(d, 1);
    std::size_t tuples = 1;
    for (std::size_t k = 0; k < d; ++k) tuples *= d;
    BOOST_TEST(p.processors == tuples + d);
    BOOST_TEST(p.messages.size() == d * d);
    BOOST_TEST(bm::degree(p) == d);
    BOOST_CHECK_NO_THROW(bm::check(p));
    const auto heard = bundles_heard(p, d);
    const std::set<std::vector<std::size_t>> distinct(heard.begin() + static_cast<long>(d), heard.end());
    BOOST_TEST(distinct.size() == tuples);  // every J ∈ [1:d]^d once
  }
}

BOOST_AUTO_TEST_CASE(example_3_1_has_d_factorial_orders_per_tuple) {
  const std::size_t d = 3;
  const bm::TightInstance tight = bm::example_3_1(d, 1);
  const bm::Problem& p = tight.problem;
  BOOST_TEST(p.processors == 27u * 6u + 3u);
  BOOST_TEST(bm::degree(p) == d);
  // The incoming order lists each receiver's d edges together; map edges back to senders.
  std::vector<std::size_t> sender_of_edge;
  std::vector<bm::ProcessorId> receiver_of_edge;
  for (std::size_t m = 0; m < p.messages.size(); ++m) {
    for (const bm::ProcessorId q : p.messages[m].destinations) {
      sender_of_edge.push_back(m / d);
      receiver_of_edge.push_back(q);
    }
  }
  std::vector<std::size_t> sorted = tight.incoming_order;
  std::ranges::sort(sorted);
  for (std::size_t e = 0; e < sorted.size(); ++e) BOOST_TEST_REQUIRE(sorted[e] == e);
  const auto heard = bundles_heard(p, d);
  std::map<std::vector<std::size_t>, std::set<std::vector<std::size_t>>> orders_per_tuple;
  for (std::size_t k = 0; k < tight.incoming_order.size(); k += d) {
    const bm::ProcessorId q = receiver_of_edge[tight.incoming_order[k]];
    std::vector<std::size_t> order;
    for (std::size_t t = 0; t < d; ++t) {
      BOOST_TEST_REQUIRE(receiver_of_edge[tight.incoming_order[k + t]] == q);
      order.push_back(sender_of_edge[tight.incoming_order[k + t]]);
    }
    orders_per_tuple[heard[q]].insert(order);
  }
  BOOST_TEST(orders_per_tuple.size() == 27u);
  for (const auto& [tuple, orders] : orders_per_tuple) BOOST_TEST(orders.size() == 6u);
}

BOOST_AUTO_TEST_CASE(examples_reject_sizes_outside_their_caps) {
  BOOST_CHECK_THROW(bm::example_3_1(1, 1), baton::error::InvalidInput);
  BOOST_CHECK_THROW(bm::example_3_1(6, 1), baton::error::InvalidInput);
  BOOST_CHECK_THROW(bm::example_3_2(8, 1), baton::error::InvalidInput);
}

BOOST_AUTO_TEST_CASE(random_instances_are_well_formed_deterministic_and_of_bounded_degree) {
  std::size_t at_degree = 0;
  const auto shapes = bm::test::random_shapes(300, 7);
  for (const bm::RandomInstanceOptions& shape : shapes) {
    const bm::Problem p = bm::random_instance(shape);
    BOOST_CHECK_NO_THROW(bm::check(p));
    BOOST_TEST_REQUIRE(bm::degree(p) <= shape.degree);
    at_degree += bm::degree(p) == shape.degree ? 1 : 0;
    for (const bm::Message& m : p.messages) {
      BOOST_TEST_REQUIRE(m.source < shape.senders);
      BOOST_TEST_REQUIRE(m.destinations.size() <= shape.max_fanout);
      if (!shape.senders_receive) {
        for (const bm::ProcessorId q : m.destinations) BOOST_TEST_REQUIRE(q >= shape.senders);
      }
    }
    const bm::Problem again = bm::random_instance(shape);
    BOOST_TEST_REQUIRE(again.messages.size() == p.messages.size());
    for (std::size_t m = 0; m < p.messages.size(); ++m) {
      BOOST_TEST_REQUIRE(again.messages[m].destinations == p.messages[m].destinations);
    }
  }
  // Most shapes reach their degree, so the sweeps exercise the bounds at full d.
  BOOST_TEST(at_degree * 2 > shapes.size());
}

BOOST_AUTO_TEST_SUITE_END()
