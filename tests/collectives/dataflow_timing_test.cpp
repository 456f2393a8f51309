// The plan's prediction (coordinator/collectives/dataflow_timing.h) on hand-made plans whose times
// follow from the model by hand: links shared max-min fairly, a node's sends taken in list
// order with at most k unfinished ahead, and a plan that k = 1 would deadlock.
#include "coordinator/collectives/dataflow_timing.h"
#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace coll = baton::collectives;
using boost::test_tools::tolerance;

namespace {

coll::CollectiveModel model(std::initializer_list<std::pair<const char*, double>> rates, double beta) {
  coll::CollectiveModel m{.beta = beta, .nodes = {}};
  for (const auto& [node, rate] : rates) m.nodes[node] = {rate, 0};
  return m;
}

// A send or receive of 1 MB of `object` with `peer`.
coll::DataflowTask flow(coll::TaskKind kind, std::uint32_t id, std::vector<std::uint32_t> after,
                        const std::string& peer, const std::string& object, std::uint64_t transfer) {
  coll::DataflowTask t;
  t.kind = kind;
  t.id = id;
  t.after = std::move(after);
  t.peer = peer;
  t.region = {object, 0, 1'000'000};
  t.transfer = transfer;
  return t;
}

const coll::DataflowTask& task(const coll::DataflowPlan& plan, const std::string& node, std::uint32_t id) {
  for (const coll::DataflowTask& t : plan.at(node)) {
    if (t.id == id) return t;
  }
  throw std::logic_error("no task " + std::to_string(id) + " on " + node);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(dataflow_timing)

// f (rate 4) sends m to slow s (rate 1) and to g (rate 4) at once: s takes 1, so g's flow
// gets the other 3 of f's link and ends after β + m / 3; s's after β + m. One at a time, s
// first, g's would start only after β + m and end β + m / 4 later.
BOOST_AUTO_TEST_CASE(a_fast_senders_link_goes_to_the_flows_that_can_take_it) {
  const double beta = 0.01, m = 3e6;
  const coll::CollectiveModel rates = model({{"f", 4e6}, {"g", 4e6}, {"s", 1e6}}, beta);
  coll::DataflowBuilder builder;
  builder.transfer("f", {"x", 0, 3'000'000}, {}, "s", {"x", 0, 3'000'000});
  builder.transfer("f", {"x", 0, 3'000'000}, {}, "g", {"x", 0, 3'000'000});
  coll::DataflowPlan two = builder.take(), one = two;
  BOOST_TEST(coll::predict(two, rates, 2) == beta + m / 1e6, tolerance(1e-9));
  BOOST_TEST(task(two, "g", 1).planned_end == beta + m / 3e6, tolerance(1e-9));
  BOOST_TEST(coll::predict(one, rates, 1) == 2 * beta + m / 1e6 + m / 4e6, tolerance(1e-9));
}

// a sends x to b and y to c; b takes a's x only after c has forwarded y to it, and c has y
// only from a's second send. One send at a time, a's first send holds its port while b
// cannot take it: the plan deadlocks. Two at a time: three transfers in a row.
BOOST_AUTO_TEST_CASE(a_plan_that_one_send_at_a_time_deadlocks_runs_with_two) {
  const double beta = 0.002, m = 1e6;
  const coll::CollectiveModel rates = model({{"a", 5e6}, {"b", 5e6}, {"c", 5e6}}, beta);
  coll::DataflowPlan plan;
  plan["a"] = {flow(coll::TaskKind::send, 1, {}, "b", "x", 1), flow(coll::TaskKind::send, 2, {}, "c", "y", 2)};
  plan["c"] = {flow(coll::TaskKind::receive, 1, {}, "a", "y", 2), flow(coll::TaskKind::send, 2, {1}, "b", "y", 3)};
  plan["b"] = {flow(coll::TaskKind::receive, 1, {}, "c", "y", 3), flow(coll::TaskKind::receive, 2, {1}, "a", "x", 1)};
  coll::DataflowPlan one = plan;
  BOOST_CHECK_THROW(coll::predict(one, rates, 1), baton::error::Bug);
  BOOST_TEST(coll::predict(plan, rates, 2) == 3 * (beta + m / 5e6), tolerance(1e-9));
}

BOOST_AUTO_TEST_SUITE_END()
