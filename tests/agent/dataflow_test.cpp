// Dataflow steps (docs/collectives.md, "Tasks") run by the step runners of three or four
// real agents on loopback, each with its memory regions and scratch objects in memory:
// a reduction leaf → inner node → root whose result is checked element by element against
// a computation of the test's own, a multicast relayed by a node that received it, a
// combine of four f64 arrays bit for bit against a left fold, the send port taken in list
// order (and k sends at once, within the node's rate each way), a send paced toward its planned end, a receive held back until the tasks it waits for are done, and failures that name
// the task, the peer and the object.
#include "tests/agent/dataflow_harness.h"

#include <boost/test/unit_test.hpp>

#include <asio/steady_timer.hpp>

#include <cmath>
#include <random>

using namespace baton::agent::test;

namespace {

struct FourAgents {
  asio::io_context io;
  Node a{io, "a"}, b{io, "b"}, c{io, "c"}, d{io, "d"};
  ~FourAgents() { stop_nodes(io, {&a, &b, &c, &d}); }
};

template <class T>
std::vector<T> random_array(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (T& x : v) {
    if constexpr (std::is_floating_point_v<T>) x = std::uniform_real_distribution<T>(-1, 1)(rng);
    else x = static_cast<T>(rng());
  }
  return v;
}

// The reduction of SNF's Lemma 1 on four nodes: leaves a and b send their arrays to c,
// which folds data_c ⊕ q_a ⊕ q_b (in this order) into a scratch object and sends it to
// the root d, which folds data_d ⊕ q_c into its result. Returns the four plans.
struct ReducePlans {
  DataflowPlan a, b, c, d;
};

ReducePlans reduce_plans(FourAgents& t, std::uint64_t bytes, bp::DataType dtype, bp::ReduceOp op) {
  ReducePlans p;
  p.a.send(0, {}, "c", t.c.data->address(), 0, {{1, "data", 0, "scratch:from-a", 0, bytes, 0}});
  p.b.send(0, {}, "c", t.c.data->address(), 0, {{2, "data", 0, "scratch:from-b", 0, bytes, bytes}});
  p.c.receive(0, {}, "a", {{1, "data", 0, "scratch:from-a", 0, bytes, 0}})
      .receive(1, {}, "b", {{2, "data", 0, "scratch:from-b", 0, bytes, bytes}})
      .combine(2, {0, 1}, dtype, op, {{"data", 0, bytes}, {"scratch:from-a", 0, bytes}, {"scratch:from-b", 0, bytes}},
               {"scratch:out", 0, bytes})
      .send(3, {2}, "d", t.d.data->address(), 0, {{3, "scratch:out", 0, "scratch:from-c", 0, bytes, 0}});
  p.d.receive(0, {}, "c", {{3, "scratch:out", 0, "scratch:from-c", 0, bytes, 0}})
      .combine(1, {0}, dtype, op, {{"data", 0, bytes}, {"scratch:from-c", 0, bytes}}, {"result", 0, bytes});
  return p;
}

// One send of `length` pattern bytes from `from`'s region "x" into `to`'s region "y" at
// `rate`, and its receive. The regions live here: keep it while the plans run.
struct OneSend {
  OneSend(Node& from, Node& to, std::uint64_t length, double rate) : x(pattern(length, 4)), y(length) {
    from.storage.register_region("x", x);
    to.storage.register_region("y", y);
    a.send(0, {}, "b", to.data->address(), rate, {{1, "x", 0, "y", 0, length, 0}});
    b.receive(0, {}, "a", {{1, "x", 0, "y", 0, length, 0}});
  }
  std::vector<std::byte> x, y;
  DataflowPlan a, b;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(dataflow)

// Integers exactly: the sum of the four arrays, wrapping modulo 2^64, computed here.
BOOST_AUTO_TEST_CASE(a_reduction_of_i64_arrays_is_their_exact_sum) {
  FourAgents t;
  const std::size_t n = 300'007;  // 2.4 MB: dozens of 64 KiB pool buffers, and a ragged tail
  std::vector<std::int64_t> data[4] = {random_array<std::int64_t>(n, 1), random_array<std::int64_t>(n, 2),
                                       random_array<std::int64_t>(n, 3), random_array<std::int64_t>(n, 4)};
  std::vector<std::int64_t> result(n, 0);
  Node* nodes[4] = {&t.a, &t.b, &t.c, &t.d};
  for (int i = 0; i < 4; ++i) nodes[i]->storage.register_region("data", bytes_of(data[i]));
  t.d.storage.register_region("result", bytes_of(result));
  ReducePlans p = reduce_plans(t, n * 8, bp::I64, bp::SUM);
  auto ra = runner_for(t.a, p.a.plan), rb = runner_for(t.b, p.b.plan), rc = runner_for(t.c, p.c.plan),
       rd = runner_for(t.d, p.d.plan);
  const auto reports = run_all(t.io, {ra.get(), rb.get(), rc.get(), rd.get()});
  for (const bp::StepReport& r : reports) BOOST_TEST_REQUIRE(r.ok(), r.error());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t sum = 0;
    for (const auto& array : data) sum += static_cast<std::uint64_t>(array[i]);
    if (result[i] != static_cast<std::int64_t>(sum)) ++wrong;
  }
  BOOST_TEST(wrong == 0u);
  // Digests for the coordinator's matching: each sender's `sent` beside its receiver's.
  BOOST_TEST_REQUIRE(reports[0].sent_size() == 1);
  BOOST_TEST_REQUIRE(reports[2].digests_size() == 2);
  BOOST_TEST(reports[0].sent(0).xxh3() == reports[2].digests(0).xxh3());
  BOOST_TEST(reports[2].sent(0).xxh3() == reports[3].digests(0).xxh3());
  // Every task reports its timing, in the order the dependencies allow.
  BOOST_TEST(reports[2].tasks_size() == 4);
  const bp::TaskTiming receive_a = timing(reports[2], 0), receive_b = timing(reports[2], 1),
                       fold = timing(reports[2], 2), forward = timing(reports[2], 3);
  BOOST_TEST(fold.start() >= std::max(receive_a.end(), receive_b.end()));
  BOOST_TEST(forward.start() >= fold.end());
  BOOST_TEST(fold.bytes() == n * 8);
  BOOST_TEST(forward.bytes() == n * 8);
  BOOST_TEST(reports[2].bytes() == 3 * n * 8);  // received twice, sent once
}

// Floats in the plan's fold order: root = data_d + ((data_c + data_a) + data_b), in f32.
BOOST_AUTO_TEST_CASE(a_reduction_of_f32_arrays_folds_in_the_plans_order) {
  FourAgents t;
  const std::size_t n = 100'003;
  std::vector<float> data[4] = {random_array<float>(n, 5), random_array<float>(n, 6), random_array<float>(n, 7),
                                random_array<float>(n, 8)};
  std::vector<float> result(n, 0);
  Node* nodes[4] = {&t.a, &t.b, &t.c, &t.d};
  for (int i = 0; i < 4; ++i) nodes[i]->storage.register_region("data", bytes_of(data[i]));
  t.d.storage.register_region("result", bytes_of(result));
  ReducePlans p = reduce_plans(t, n * 4, bp::F32, bp::SUM);
  auto ra = runner_for(t.a, p.a.plan), rb = runner_for(t.b, p.b.plan), rc = runner_for(t.c, p.c.plan),
       rd = runner_for(t.d, p.d.plan);
  const auto reports = run_all(t.io, {ra.get(), rb.get(), rc.get(), rd.get()});
  for (const bp::StepReport& r : reports) BOOST_TEST_REQUIRE(r.ok(), r.error());
  std::size_t wrong = 0;
  double error = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float inner = (data[2][i] + data[0][i]) + data[1][i];
    const float want = data[3][i] + inner;
    if (std::memcmp(&want, &result[i], sizeof want) != 0) ++wrong;
    const double exact = double(data[0][i]) + data[1][i] + data[2][i] + data[3][i];
    error = std::max(error, std::abs(exact - result[i]));
  }
  BOOST_TEST(wrong == 0u);   // bit for bit, the plan's order
  BOOST_TEST(error < 1e-6);  // and within three roundings of the exact sum (|x| <= 1)
}

// A multicast with a relay: a sends its model to b, and b relays what it received to c
// and then d (its sends one at a time, in list order). Every destination's bytes are the
// source's.
BOOST_AUTO_TEST_CASE(a_relayed_multicast_delivers_the_sources_bytes_everywhere) {
  FourAgents t;
  const std::uint64_t length = 1'000'003;
  auto model = pattern(length, 11);
  std::vector<std::byte> at_b(length), at_c(length), at_d(length);
  t.a.storage.register_region("model", model);
  t.b.storage.register_region("model", at_b);
  t.c.storage.register_region("model", at_c);
  t.d.storage.register_region("model", at_d);
  DataflowPlan a("multicast"), b("multicast"), c("multicast"), d("multicast");
  a.send(0, {}, "b", t.b.data->address(), 0, {{1, "model", 0, "model", 0, length, 0}});
  b.receive(0, {}, "a", {{1, "model", 0, "model", 0, length, 0}})
      .send(1, {0}, "c", t.c.data->address(), 20e6, {{2, "model", 0, "model", 0, length, 0}})
      .send(2, {0}, "d", t.d.data->address(), 20e6, {{3, "model", 0, "model", 0, length, 0}});
  c.receive(0, {}, "b", {{2, "model", 0, "model", 0, length, 0}});
  d.receive(0, {}, "b", {{3, "model", 0, "model", 0, length, 0}});
  auto ra = runner_for(t.a, a.plan), rb = runner_for(t.b, b.plan), rc = runner_for(t.c, c.plan),
       rd = runner_for(t.d, d.plan);
  const auto reports = run_all(t.io, {ra.get(), rb.get(), rc.get(), rd.get()});
  for (const bp::StepReport& r : reports) BOOST_TEST_REQUIRE(r.ok(), r.error());
  BOOST_TEST((at_b == model));
  BOOST_TEST((at_c == model));
  BOOST_TEST((at_d == model));
  // The relay forwards after it has received the whole message, and its port takes one
  // send at a time: 1 MB at 20 MB/s is 50 ms each.
  const bp::TaskTiming got = timing(reports[1], 0), to_c = timing(reports[1], 1), to_d = timing(reports[1], 2);
  BOOST_TEST(to_c.start() >= got.end());
  BOOST_TEST(to_d.start() >= to_c.end());
  BOOST_TEST(to_c.end() - to_c.start() > 0.04);
}

// The combine's order is the plan's: four f64 inputs folded left, ((x0 + x1) + x2) + x3,
// the same bits as that fold computed here, on values where another order rounds
// differently.
BOOST_AUTO_TEST_CASE(a_combine_of_four_f64_arrays_is_their_left_fold_bit_for_bit) {
  TwoAgents t;
  const std::size_t n = 50'001;
  std::vector<double> x[4];
  std::mt19937_64 rng(3);
  for (auto& v : x) {
    v.resize(n);
    for (double& e : v)
      e = std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng), static_cast<int>(rng() % 60));
  }
  std::vector<double> sum(n);
  for (int i = 0; i < 4; ++i) t.a.storage.register_region("x" + std::to_string(i), bytes_of(x[i]));
  t.a.storage.register_region("sum", bytes_of(sum));
  const std::uint64_t bytes = n * 8;
  DataflowPlan plan;
  plan.combine(7, {}, bp::F64, bp::SUM, {{"x0", 0, bytes}, {"x1", 0, bytes}, {"x2", 0, bytes}, {"x3", 0, bytes}},
               {"sum", 0, bytes});
  auto runner = runner_for(t.a, plan.plan);
  const auto reports = run_all(t.io, {runner.get()});
  BOOST_TEST_REQUIRE(reports[0].ok(), reports[0].error());
  std::size_t left = 0, right = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double fold = ((x[0][i] + x[1][i]) + x[2][i]) + x[3][i];
    const double other = x[0][i] + (x[1][i] + (x[2][i] + x[3][i]));
    if (std::memcmp(&fold, &sum[i], 8) == 0) ++left;
    if (std::memcmp(&other, &sum[i], 8) == 0) ++right;
  }
  BOOST_TEST(left == n);
  BOOST_TEST(right < n);  // the order shows: a right fold differs somewhere
  BOOST_TEST(timing(reports[0], 7).bytes() == bytes);
}

// b sends its array to c, then receives a's into the same array: a's flow, which comes at
// once, waits until b's send has ended, so c gets b's old bytes and b ends with a's.
BOOST_AUTO_TEST_CASE(a_receive_waits_for_the_tasks_it_waits_for) {
  ThreeAgents t;
  const std::uint64_t length = 200'000;
  auto from_a = pattern(length, 1), at_b = pattern(length, 2);
  const auto b_before = at_b;
  std::vector<std::byte> at_c(length);
  t.a.storage.register_region("x", from_a);
  t.b.storage.register_region("x", at_b);
  t.c.storage.register_region("x", at_c);
  DataflowPlan a, b, c;
  a.send(0, {}, "b", t.b.data->address(), 0, {{1, "x", 0, "x", 0, length, 0}});
  b.send(0, {}, "c", t.c.data->address(), 1e6, {{2, "x", 0, "x", 0, length, 0}})  // 0.2 s
      .receive(1, {0}, "a", {{1, "x", 0, "x", 0, length, 0}});
  c.receive(0, {}, "b", {{2, "x", 0, "x", 0, length, 0}});
  auto ra = runner_for(t.a, a.plan), rb = runner_for(t.b, b.plan), rc = runner_for(t.c, c.plan);
  const auto reports = run_all(t.io, {ra.get(), rb.get(), rc.get()});
  for (const bp::StepReport& r : reports) BOOST_TEST_REQUIRE(r.ok(), r.error());
  BOOST_TEST((at_c == b_before));
  BOOST_TEST((at_b == from_a));
  BOOST_TEST(timing(reports[1], 1).start() >= timing(reports[1], 0).end());
  BOOST_TEST(timing(reports[1], 0).end() > 0.15);
}

BOOST_AUTO_TEST_CASE(a_failed_task_fails_the_step_naming_task_peer_and_object) {
  ThreeAgents t;
  std::vector<std::int32_t> data(1000, 1);
  t.a.storage.register_region("data", bytes_of(data));
  // A send to an address where nobody listens.
  DataflowPlan a;
  a.send(4, {}, "b", "127.0.0.1:1", 0, {{1, "data", 0, "scratch:q", 0, 4000, 0}});
  auto ra = runner_for(t.a, a.plan);
  const auto reports = run_all(t.io, {ra.get()}, 5s);
  BOOST_TEST(!reports[0].ok());
  BOOST_TEST(reports[0].error().find("task 4 (send to b from data)") != std::string::npos, reports[0].error());
  BOOST_TEST(reports[0].error().find("cannot connect") != std::string::npos, reports[0].error());
  // A receive whose sender never comes: the timeout names the task.
  DataflowPlan b;
  b.receive(2, {}, "a", {{1, "data", 0, "scratch:q", 0, 4000, 0}});
  auto rb = runner_for(t.b, b.plan);
  const auto late = run_all(t.io, {rb.get()}, 500ms);
  BOOST_TEST(!late.at(0).ok());
  BOOST_TEST(late[0].error().find("timed out after 500 ms with task(s) unfinished: task 2 (receive from a into "
                                  "scratch:q)") != std::string::npos,
             late[0].error());
}

// While a step runs, its progress counts the bytes moved so far (no allocation per chunk:
// a counter the chunks' sources and sinks add to) and the tasks that have ended.
BOOST_AUTO_TEST_CASE(progress_counts_the_bytes_moved_and_the_tasks_ended) {
  ThreeAgents t;
  const std::uint64_t length = 400'000;
  OneSend one(t.a, t.b, length, 1e6);  // 0.4 s
  auto ra = runner_for(t.a, one.a.plan), rb = runner_for(t.b, one.b.plan);
  std::optional<bp::StepProgress> midway, idle = rb->progress();
  asio::steady_timer at(t.io, 200ms);
  at.async_wait([&](std::error_code) { midway = rb->progress(); });
  const auto reports = run_all(t.io, {ra.get(), rb.get()});
  BOOST_TEST_REQUIRE(reports[1].ok(), reports[1].error());
  BOOST_TEST(!idle);
  BOOST_TEST_REQUIRE(midway.has_value());
  BOOST_TEST(midway->bytes() > 50'000u);
  BOOST_TEST(midway->bytes() < length);
  BOOST_TEST(midway->tasks_size() == 0);  // the receive has not ended
  BOOST_TEST(!rb->progress());            // the step is over
}

// k = 2 lets a node send on while an earlier send waits for its receiver: a's flow to b
// waits until b has c's, and c forwards only what a's second send brings it. With k = 1 the
// step could never end (a's port held by the first send); with k = 2 it ends right.
BOOST_AUTO_TEST_CASE(with_k_2_a_send_goes_on_beside_one_that_waits_for_its_receiver) {
  ThreeAgents t;
  const std::uint64_t length = 300'000;
  auto x = pattern(length, 5), y = pattern(length, 6);
  std::vector<std::byte> b_x(length), b_y(length), c_y(length);
  t.a.storage.register_region("x", x);
  t.a.storage.register_region("y", y);
  t.b.storage.register_region("x", b_x);
  t.b.storage.register_region("y", b_y);
  t.c.storage.register_region("y", c_y);
  DataflowPlan a, b, c;
  a.plan.set_k(2);
  a.send(0, {}, "b", t.b.data->address(), 0, {{1, "x", 0, "x", 0, length, length}})
      .send(1, {}, "c", t.c.data->address(), 0, {{2, "y", 0, "y", 0, length, 0}});
  b.receive(0, {}, "c", {{3, "y", 0, "y", 0, length, 0}}).receive(1, {0}, "a", {{1, "x", 0, "x", 0, length, length}});
  c.receive(0, {}, "a", {{2, "y", 0, "y", 0, length, 0}})
      .send(1, {0}, "b", t.b.data->address(), 0, {{3, "y", 0, "y", 0, length, 0}});
  auto ra = runner_for(t.a, a.plan), rb = runner_for(t.b, b.plan), rc = runner_for(t.c, c.plan);
  const auto reports = run_all(t.io, {ra.get(), rb.get(), rc.get()});
  for (const bp::StepReport& r : reports) BOOST_TEST_REQUIRE(r.ok(), r.error());
  BOOST_TEST((b_x == x));
  BOOST_TEST((b_y == y));
  BOOST_TEST((c_y == y));
  BOOST_TEST(timing(reports[0], 1).start() < timing(reports[0], 0).end());
}

// A plan's node_rate caps the node's link each way: a's two unpaced sends at once, 1 MB
// each, share 10 MB/s, and so do c's two incoming flows from unpaced senders a and b; each
// side takes at least 2 MB / 10 MB/s less one burst (10 ms of the rate) of each bucket.
BOOST_AUTO_TEST_CASE(node_rate_caps_a_nodes_sends_together_and_its_receives_together) {
  FourAgents t;
  const std::uint64_t length = 1'000'000;
  auto x = pattern(length, 7), y = pattern(length, 8);
  std::vector<std::byte> b_x(length), c_y(length), c_z(length);
  t.a.storage.register_region("x", x);
  t.a.storage.register_region("y", y);
  t.b.storage.register_region("x", b_x);
  t.c.storage.register_region("y", c_y);
  t.c.storage.register_region("z", c_z);
  auto z = pattern(length, 9);
  t.d.storage.register_region("z", z);
  DataflowPlan a, b, c, d;
  a.plan.set_k(2);
  a.plan.set_node_rate(10e6);
  c.plan.set_node_rate(10e6);
  a.send(0, {}, "b", t.b.data->address(), 0, {{1, "x", 0, "x", 0, length, 0}})
      .send(1, {}, "c", t.c.data->address(), 0, {{2, "y", 0, "y", 0, length, 0}});
  b.receive(0, {}, "a", {{1, "x", 0, "x", 0, length, 0}});
  c.receive(0, {}, "a", {{2, "y", 0, "y", 0, length, 0}}).receive(1, {}, "d", {{3, "z", 0, "z", 0, length, length}});
  d.send(0, {}, "c", t.c.data->address(), 0, {{3, "z", 0, "z", 0, length, length}});
  auto ra = runner_for(t.a, a.plan), rb = runner_for(t.b, b.plan), rc = runner_for(t.c, c.plan),
       rd = runner_for(t.d, d.plan);
  const auto reports = run_all(t.io, {ra.get(), rb.get(), rc.get(), rd.get()});
  for (const bp::StepReport& r : reports) BOOST_TEST_REQUIRE(r.ok(), r.error());
  BOOST_TEST((b_x == x));
  BOOST_TEST((c_y == y));
  BOOST_TEST((c_z == z));
  const double a_sent = std::max(timing(reports[0], 0).end(), timing(reports[0], 1).end());
  const double c_received = std::max(timing(reports[2], 0).end(), timing(reports[2], 1).end());
  BOOST_TEST(a_sent >= 0.17);
  BOOST_TEST(c_received >= 0.17);
}

// A send is paced toward its task's planned end (docs/transport.md): 1 MB at a rate of
// 10 MB/s, planned over 0.3 s, moves at its planned mean (3.3 MB/s), not its rate, and so
// takes at least 0.27 s (no more than one burst, 10 ms of the rate, goes at once: a
// dataflow send starts with a quarter of one); at its rate alone it would take 0.09 s.
BOOST_AUTO_TEST_CASE(a_send_is_paced_toward_its_planned_end) {
  TwoAgents t;
  OneSend one(t.a, t.b, 1'000'000, 10e6);
  one.a.plan.mutable_steps(0)->mutable_tasks(0)->set_planned_end(0.3);
  auto ra = runner_for(t.a, one.a.plan), rb = runner_for(t.b, one.b.plan);
  const auto reports = run_all(t.io, {ra.get(), rb.get()});
  for (const bp::StepReport& r : reports) BOOST_TEST_REQUIRE(r.ok(), r.error());
  BOOST_TEST((one.y == one.x));
  BOOST_TEST(timing(reports[0], 0).end() >= 0.27);
}

BOOST_AUTO_TEST_SUITE_END()
