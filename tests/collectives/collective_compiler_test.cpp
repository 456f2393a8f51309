// The collectives' plan compiler (coordinator/collectives/collective_compiler.h): every kind and
// algorithm on 5 to 9 nodes of unequal rates gives plans that pass the independent checkers
// (and the checkers refuse broken plans); the model's makespans are the SNF paper's Fig. 8
// numbers; the plan's predictions match closed forms computed here.
#include "coordinator/collectives/collective_compiler.h"
#include "error/error.h"
#include "error/refusal.h"

#include "agent/plan_check.h"
#include "coordinator/collectives/compiled_dataflow_check.h"
#include "coordinator/collectives/lockstep_check.h"
#include "coordinator/jobs/agent_plans.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace bj = baton::jobs;
namespace coll = baton::collectives;
namespace bp = baton::protocol;
using boost::test_tools::tolerance;
using Algorithm = coll::Algorithm;

namespace {

// Unequal rates (bytes/s) and combine speeds for up to 9 nodes.
const double kRates[] = {1e6, 2e6, 5e6, 1.5e6, 3e6, 8e6, 2.5e6, 4e6, 6e6};
const double kCombine[] = {4e7, 9e7, 2e7, 6e7, 5e7, 3e7, 8e7, 7e7, 1e8};

std::vector<std::string> names(std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back("n" + std::to_string(i));
  return out;
}

coll::CollectiveModel model_of(std::size_t n, double beta = 0.005) {
  coll::CollectiveModel model{.beta = beta, .nodes = {}};
  for (std::size_t i = 0; i < n; ++i) model.nodes["n" + std::to_string(i)] = {kRates[i], kCombine[i]};
  return model;
}

coll::CollectiveJob reduce_job(bj::JobKind kind, std::size_t n, Algorithm algorithm, std::uint64_t count = 100'000) {
  coll::CollectiveJob job;
  job.kind = kind;
  job.nodes = names(n);
  job.algorithm = algorithm;
  if (kind == bj::JobKind::reduce) job.root = "n" + std::to_string(n / 2);
  job.data = {"grad.bin", 64, count, bp::F32};
  job.op = bp::SUM;
  job.result_file = "sum.bin";
  return job;
}

// Two messages: n1 to every other node, and n0 to three of them.
coll::CollectiveJob multicast_job(bj::JobKind kind, std::size_t n, Algorithm algorithm) {
  coll::CollectiveJob job;
  job.kind = kind;
  job.nodes = names(n);
  job.algorithm = algorithm;
  job.buffers = 2;
  coll::Message all{"n1", "model.bin", 0, 3'000'000, {}, "model.bin"};
  for (std::size_t i = 0; i < n; ++i) {
    if (i != 1) all.destinations.push_back("n" + std::to_string(i));
  }
  job.messages.push_back(all);
  job.messages.push_back({"n0", "bias.bin", 128, 500'000, {"n2", "n3", "n4"}, "bias.bin"});
  return job;
}

std::string joined(const std::vector<std::string>& errors) {
  std::string all;
  for (const std::string& e : errors) all += e + "\n";
  return all;
}

// The agents' own checks (agent/plan_check.h, another engineer's code) of every node's
// plan as it is sent, on files large enough for what the job reads.
void check_on_agents(const bj::CompiledPlan& plan) {
  std::map<std::string, std::string> addresses;
  for (const auto& [node, p] : plan.agent_plans) addresses[node] = node + ":7100";
  const baton::agent::PlanObjects files{
      .check_name = [](const std::string&) { return std::optional<baton::error::Refusal>(); },
      .source_size = [](const std::string&) { return std::uint64_t{1} << 40; },
      .destination_limit = [](const std::string&) { return std::numeric_limits<std::uint64_t>::max(); }};
  for (const auto& [node, p] : bj::address_plans(plan.agent_plans, addresses, {.id = "7", .number = 7})) {
    const std::string refusal = baton::agent::check_plan(p, files).value_or("").reason;
    BOOST_TEST(refusal == "", node << ": " << refusal);
  }
}

// Checks what every compiled dataflow plan must hold, beyond the checker: each send is
// paced no faster than min(r_sender, r_receiver) and fast enough to end when the plan says
// (its bytes over its planned time less β), each node's link capped at its rate, the step
// one per node, predicted as compiled, and the agents accept it.
void check_dataflow(const coll::CollectiveJob& job, const coll::CollectiveModel& model, const bj::CompiledPlan& plan) {
  BOOST_TEST(joined(coll::check_dataflow_plans(job, plan.agent_plans)) == "");
  check_on_agents(plan);
  BOOST_TEST_REQUIRE(plan.steps.size() == 1u);
  BOOST_TEST(plan.agent_plans.size() == job.nodes.size());
  double latest = 0;
  for (const auto& [node, p] : plan.agent_plans) {
    BOOST_TEST(p.kind() == std::string(bj::name(job.kind)));
    BOOST_TEST(p.node_rate() == model.nodes.at(node).rate);
    BOOST_TEST(p.k() == plan.k);
    for (const bp::Task& t : p.steps(0).tasks()) {
      latest = std::max(latest, t.planned_end());
      if (!t.has_flow() || !t.flow().send()) continue;
      BOOST_TEST(t.flow().rate() <= std::min(model.nodes.at(node).rate, model.nodes.at(t.flow().peer()).rate));
      const double moving = t.planned_end() - t.planned_start() - model.beta;
      if (moving > 0)
        BOOST_TEST(t.flow().rate() * moving >= 0.999999 * static_cast<double>(t.flow().chunks(0).length()));
    }
  }
  BOOST_TEST(latest == plan.predicted_seconds, tolerance(1e-12));
  BOOST_TEST(plan.steps[0].predicted_seconds == plan.predicted_seconds);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(collective_compiler)

BOOST_AUTO_TEST_CASE(every_reduce_and_allreduce_algorithm_on_5_to_9_unequal_nodes_passes_the_checker) {
  for (std::size_t n = 5; n <= 9; ++n) {
    const coll::CollectiveModel model = model_of(n);
    for (const bj::JobKind kind : {bj::JobKind::reduce, bj::JobKind::allreduce}) {
      for (const Algorithm algorithm : coll::algorithms(kind)) {
        if (algorithm == Algorithm::dp || algorithm == Algorithm::automatic)
          continue;  // two speed classes only; auto: below
        BOOST_TEST_CONTEXT(bj::name(kind) << " " << coll::name(algorithm) << " on " << n << " nodes") {
          const coll::CollectiveJob job = reduce_job(kind, n, algorithm);
          const bj::CompiledPlan plan = coll::compile_collective(job, model);
          check_dataflow(job, model, plan);
          // Ring and the pipelined tree are no paper's: no model makespan.
          BOOST_TEST(plan.model_seconds.has_value() ==
                     (algorithm != Algorithm::ring && algorithm != Algorithm::pipelined_tree &&
                      algorithm != Algorithm::rate_rsag));
          BOOST_TEST(!plan.lower_bound_seconds.has_value());
        }
      }
    }
  }
}

// Why an in-place all-reduce is refused at submit (coordinator/daemon/job_spec_reduce.cpp):
// a node sends or combines its data while the result it receives is written into the same
// bytes, with nothing ordering the two, so the agents refuse the plans of every algorithm
// (4 or 5 nodes of 5), where an in-place reduce's pass.
BOOST_AUTO_TEST_CASE(in_place_all_reduce_plans_are_refused_by_the_agents_and_in_place_reduce_plans_are_not) {
  const baton::agent::PlanObjects files{
      .check_name = [](const std::string&) { return std::optional<baton::error::Refusal>(); },
      .source_size = [](const std::string&) { return std::uint64_t{1} << 40; },
      .destination_limit = [](const std::string&) { return std::numeric_limits<std::uint64_t>::max(); }};
  for (const bj::JobKind kind : {bj::JobKind::reduce, bj::JobKind::allreduce}) {
    for (const Algorithm algorithm : coll::algorithms(kind)) {
      if (algorithm == Algorithm::dp || algorithm == Algorithm::automatic) continue;
      coll::CollectiveJob job = reduce_job(kind, 5, algorithm);
      job.data.offset = 0;
      job.result_file = job.data.file;
      const bj::CompiledPlan plan = coll::compile_collective(job, model_of(5));
      std::map<std::string, std::string> addresses;
      for (const auto& [node, p] : plan.agent_plans) addresses[node] = node + ":7100";
      std::size_t refused = 0;
      for (const auto& [node, p] : bj::address_plans(plan.agent_plans, addresses, {.id = "7", .number = 7})) {
        const auto why = baton::agent::check_plan(p, files);
        BOOST_TEST((!why || why->reason.find("of grad.bin while") != std::string::npos),
                   node << ": " << why.value_or("").reason);
        refused += why ? 1 : 0;
      }
      if (kind == bj::JobKind::reduce) BOOST_TEST(refused == 0u, coll::name(algorithm));
      else BOOST_TEST(refused >= 4u, coll::name(algorithm));
    }
  }
}

// "auto" predicts every applicable algorithm (not bnb) with the plan's own event
// simulation and keeps the fastest: its plan is the one that algorithm compiles to, and the
// candidates are every other algorithm's prediction, fastest first. Every plan's prediction
// respects what the links allow (bandwidth_bound.h), which is computed here independently.
BOOST_AUTO_TEST_CASE(auto_runs_the_fastest_prediction_and_no_plan_beats_the_links) {
  for (std::size_t n = 5; n <= 9; n += 2) {
    const coll::CollectiveModel model = model_of(n);
    double slowest = kRates[0], sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      slowest = std::min(slowest, kRates[i]);
      sum += kRates[i];
    }
    for (const bj::JobKind kind :
         {bj::JobKind::reduce, bj::JobKind::allreduce, bj::JobKind::multicast, bj::JobKind::buffered_multicast}) {
      BOOST_TEST_CONTEXT(bj::name(kind) << " auto on " << n << " nodes") {
        const bool reduction = kind == bj::JobKind::reduce || kind == bj::JobKind::allreduce;
        const coll::CollectiveJob job =
            reduction ? reduce_job(kind, n, Algorithm::automatic) : multicast_job(kind, n, Algorithm::automatic);
        const bj::CompiledPlan chosen = coll::compile_collective(job, model);
        BOOST_TEST_REQUIRE(!chosen.candidates.empty());
        BOOST_TEST(chosen.candidates.front().first == chosen.algorithm);
        BOOST_TEST(chosen.candidates.front().second == chosen.predicted_seconds);
        for (std::size_t c = 1; c < chosen.candidates.size(); ++c)
          BOOST_TEST(chosen.candidates[c - 1].second <= chosen.candidates[c].second);
        for (const Algorithm algorithm : coll::algorithms(kind)) {
          if (algorithm == Algorithm::automatic || algorithm == Algorithm::dp) continue;
          coll::CollectiveJob named = job;
          named.algorithm = algorithm;
          const bj::CompiledPlan plan = coll::compile_collective(named, model);
          BOOST_TEST(plan.candidates.empty());
          if (algorithm != Algorithm::bnb)
            BOOST_TEST(chosen.predicted_seconds <= plan.predicted_seconds, coll::name(algorithm));
          // The links' bound, as the issue defines it, recomputed here.
          double bound = 0;
          if (reduction) {
            const double m = static_cast<double>(job.data.bytes());
            bound = kind == bj::JobKind::reduce ? m / slowest
                                                : std::max(m / slowest, 2.0 * static_cast<double>(n - 1) * m / sum);
          } else {  // n1 sends 3 MB to everyone; n0 0.5 MB to n2, n3, n4: n1's link sends 3 MB
            bound = std::max({3e6 / kRates[1], 0.5e6 / kRates[0], 3.5e6 / kRates[2], 3.5e6 / kRates[3],
                              3.5e6 / kRates[4], 3e6 / kRates[0]});
            for (std::size_t i = 5; i < n; ++i) bound = std::max(bound, 3e6 / kRates[i]);
          }
          BOOST_TEST_REQUIRE(plan.bandwidth_bound_seconds.has_value());
          BOOST_TEST(*plan.bandwidth_bound_seconds == bound, tolerance(1e-12));
          BOOST_TEST(plan.predicted_seconds >= bound * (1 - 1e-9), coll::name(algorithm));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(dp_on_two_speed_classes_passes_the_checker) {
  for (std::size_t n = 5; n <= 9; ++n) {
    coll::CollectiveModel model = model_of(n);
    for (std::size_t i = 0; i < n; ++i) model.nodes["n" + std::to_string(i)] = {i % 3 == 0 ? 1e6 : 4e6, 5e7};
    const coll::CollectiveJob job = reduce_job(bj::JobKind::reduce, n, Algorithm::dp);
    check_dataflow(job, model, coll::compile_collective(job, model));
  }
}

// Real agents each measure their own combine speed, so no two t(p) are equal: dp takes the
// senders' declared rates as its two classes (each at its slowest member's t(p)), and
// refuses three rates.
BOOST_AUTO_TEST_CASE(dp_takes_declared_rates_as_its_classes_and_refuses_a_third) {
  const std::size_t n = 7;
  coll::CollectiveModel model = model_of(n);
  for (std::size_t i = 0; i < n; ++i) {
    model.nodes["n" + std::to_string(i)] = {i % 3 == 0 ? 1e6 : 4e6, 5e7 + 1e5 * static_cast<double>(i)};
  }
  coll::CollectiveJob job = reduce_job(bj::JobKind::reduce, n, Algorithm::dp);
  const bj::CompiledPlan dp = coll::compile_collective(job, model);
  check_dataflow(job, model, dp);
  job.algorithm = Algorithm::bnb;  // the optimum for the nodes is at most dp's for their classes
  BOOST_TEST(*coll::compile_collective(job, model).model_seconds <= *dp.model_seconds * (1 + 1e-9));
  model.nodes["n1"].rate = 2e6;
  job.algorithm = Algorithm::dp;
  try {
    coll::compile_collective(job, model);
    BOOST_FAIL("dp accepted senders of three rates");
  } catch (const baton::error::InvalidInput& e) {
    BOOST_TEST(std::string(e.what()).find("at most two rates") != std::string::npos, e.what());
  }
  // The same limit, said before planning (the coordinator refuses such a job at submit).
  BOOST_TEST(coll::tree_algorithm_problem(job, model).value_or("").reason.find("these have 3: use snf or bnb") !=
             std::string::npos);
  model.nodes["n1"].rate = 4e6;
  BOOST_TEST(!coll::tree_algorithm_problem(job, model).has_value());
}

BOOST_AUTO_TEST_CASE(an_algorithm_s_node_limit_is_said_before_planning) {
  coll::CollectiveModel model{.beta = 0.005, .nodes = {}};  // model_of has rates for 9 nodes
  for (const std::string& node : names(25)) model.nodes[node] = {1e6, 5e7};
  coll::CollectiveJob job = reduce_job(bj::JobKind::reduce, 25, Algorithm::bnb);
  BOOST_TEST(coll::tree_algorithm_problem(job, model).value_or("").reason ==
             "bnb plans at most 24 nodes; this job has 25: use snf");
  job.algorithm = Algorithm::snf;
  BOOST_TEST(!coll::tree_algorithm_problem(job, model).has_value());
  job = reduce_job(bj::JobKind::allreduce, 25, Algorithm::snf_fnf);
  BOOST_TEST(!coll::tree_algorithm_problem(job, model).has_value());
}

BOOST_AUTO_TEST_CASE(every_multicast_algorithm_on_5_to_9_unequal_nodes_passes_the_checker) {
  for (std::size_t n = 5; n <= 9; ++n) {
    const coll::CollectiveModel model = model_of(n);
    for (const Algorithm algorithm : coll::algorithms(bj::JobKind::multicast)) {
      if (algorithm == Algorithm::automatic) continue;  // below
      BOOST_TEST_CONTEXT("multicast " << coll::name(algorithm) << " on " << n << " nodes") {
        const coll::CollectiveJob job = multicast_job(bj::JobKind::multicast, n, algorithm);
        const bj::CompiledPlan plan = coll::compile_collective(job, model);
        check_dataflow(job, model, plan);
        if (algorithm == Algorithm::pipelined_tree) {  // no paper's model: neither its makespan nor its bound
          BOOST_TEST(!plan.model_seconds.has_value());
        } else {
          BOOST_TEST_REQUIRE(plan.lower_bound_seconds.has_value());
          BOOST_TEST(*plan.model_seconds >= *plan.lower_bound_seconds * (1 - 1e-9));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(every_buffered_multicast_algorithm_on_5_to_9_unequal_nodes_passes_the_checker) {
  for (std::size_t n = 5; n <= 9; ++n) {
    const coll::CollectiveModel model = model_of(n);
    for (const Algorithm algorithm : coll::algorithms(bj::JobKind::buffered_multicast)) {
      if (algorithm == Algorithm::automatic) continue;  // below
      BOOST_TEST_CONTEXT("buffered-multicast " << coll::name(algorithm) << " on " << n << " nodes") {
        const coll::CollectiveJob job = multicast_job(bj::JobKind::buffered_multicast, n, algorithm);
        const bj::CompiledPlan plan = coll::compile_collective(job, model);
        BOOST_TEST(joined(coll::check_buffered_plan(job, model, plan)) == "");
        BOOST_TEST(plan.transfers.size() == n - 1 + 3);  // one per (message, destination)
        double sum = 0;
        for (const bj::StepPlan& s : plan.steps) sum += s.predicted_seconds;
        BOOST_TEST(plan.predicted_seconds == sum, tolerance(1e-12));
      }
    }
  }
}

// The SNF paper's Fig. 8: 4 slow nodes (t = x) and 8 fast ones (t = 1), the root among the
// slow (docs/reduction.md): SNF takes x + 3, the optimum (dp) 4 for 1 < x < 1.5 and 2x + 1
// for 1.5 <= x < 2. Here t(p) = β + m / r_p + m / c_p with β = 0 and c_p = r_p, so t = 2m / r.
BOOST_AUTO_TEST_CASE(snf_and_dp_reproduce_the_papers_fig_8_in_the_model) {
  const std::uint64_t count = 250'000;  // m = 1 MB of f32
  for (const double x : {1.25, 1.75}) {
    coll::CollectiveModel model{.beta = 0, .nodes = {}};
    std::vector<std::string> nodes;
    for (std::size_t i = 0; i < 12; ++i) {
      const std::string n = "p" + std::to_string(i);
      const double rate = i < 4 ? 2e6 / x : 2e6;  // 2 m / r = x (slow) or 1 (fast)
      model.nodes[n] = {rate, rate};
      nodes.push_back(n);
    }
    coll::CollectiveJob job = reduce_job(bj::JobKind::reduce, 12, Algorithm::snf, count);
    job.nodes = nodes;
    job.root = "p0";
    const bj::CompiledPlan snf = coll::compile_collective(job, model);
    BOOST_TEST(*snf.model_seconds == x + 3, tolerance(1e-9));
    job.algorithm = Algorithm::dp;
    const bj::CompiledPlan dp = coll::compile_collective(job, model);
    BOOST_TEST(*dp.model_seconds == (x < 1.5 ? 4 : 2 * x + 1), tolerance(1e-9));
    job.algorithm = Algorithm::bnb;  // the optimum by search agrees
    BOOST_TEST(*coll::compile_collective(job, model).model_seconds == *dp.model_seconds, tolerance(1e-9));
  }
}

// A flat reduce's plan: every node sends its data to the root at once and the root's link
// carries all of them, shared (dataflow_timing.h), then the root folds the n − 1 inputs into
// its data. Here every sender's fair share of the root's link, r_root / 5 = 0.3 MB/s, is
// below its own rate, so the five flows end together after β + 5 m / r_root. (Measured on 12
// namespace nodes: the last input arrives after the sum of the transfers, not after the
// slowest one.)
BOOST_AUTO_TEST_CASE(a_flat_reduce_is_predicted_as_the_roots_shared_link_then_its_folds) {
  const std::size_t n = 6;
  const coll::CollectiveModel model = model_of(n);
  const coll::CollectiveJob job = reduce_job(bj::JobKind::reduce, n, Algorithm::flat);
  const bj::CompiledPlan plan = coll::compile_collective(job, model);
  const double m = static_cast<double>(job.data.bytes());
  const double r_root = kRates[3];
  const double receives = model.beta + static_cast<double>(n - 1) * m / r_root;
  BOOST_TEST(plan.predicted_seconds == receives + (n - 1) * m / kCombine[3], tolerance(1e-9));
  // The paper's model charges the root's receives one after the other: Σ t(p).
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i != 3) sum += model.beta + m / kRates[i] + m / kCombine[i];
  }
  BOOST_TEST(*plan.model_seconds == sum, tolerance(1e-9));
  // The root's one combine folds its own data first, then the others in the model's order.
  const auto combine =
      std::ranges::find_if(plan.steps[0].tasks, [](const bj::PlannedTask& t) { return t.kind == "combine"; });
  BOOST_TEST_REQUIRE((combine != plan.steps[0].tasks.end()));
  BOOST_TEST(combine->node == "n3");
  BOOST_TEST(combine->folds == (std::vector<std::string>{"n3", "n0", "n1", "n2", "n4", "n5"}),
             boost::test_tools::per_element());
}

// A ring on equal nodes: 2(n − 1) transfers of a segment in a chain, and a combine after
// each of the first n − 1.
BOOST_AUTO_TEST_CASE(a_ring_on_equal_nodes_is_predicted_as_its_chain_of_segments) {
  const std::size_t n = 5;
  coll::CollectiveModel model{.beta = 0.002, .nodes = {}};
  for (const std::string& node : names(n)) model.nodes[node] = {1e6, 1e7};
  const coll::CollectiveJob job =
      reduce_job(bj::JobKind::allreduce, n, Algorithm::ring, 50'000);  // 10 000 elements a segment
  const bj::CompiledPlan plan = coll::compile_collective(job, model);
  const double segment = 40'000;
  const double expected =
      (n - 1) * (model.beta + segment / 1e6 + segment / 1e7) + (n - 1) * (model.beta + segment / 1e6);
  BOOST_TEST(plan.predicted_seconds == expected, tolerance(1e-9));
  BOOST_TEST(!plan.model_seconds.has_value());
  std::size_t sends = 0;
  for (const bj::PlannedTask& t : plan.steps[0].tasks) sends += t.kind == "send" ? 1 : 0;
  BOOST_TEST(sends == 2 * n * (n - 1));
  BOOST_TEST(plan.steps[0].flow_count() == sends);
}

// A flat multicast: the source's sends one after the other, each at the slower end's pace.
BOOST_AUTO_TEST_CASE(a_flat_multicast_is_predicted_as_the_sources_sends_in_turn) {
  const std::size_t n = 5;
  const coll::CollectiveModel model = model_of(n);
  coll::CollectiveJob job = multicast_job(bj::JobKind::multicast, n, Algorithm::flat);
  job.messages.resize(1);
  const bj::CompiledPlan plan = coll::compile_collective(job, model);
  double expected = 0, arrival = 0;
  std::size_t turn = 0;
  for (const std::size_t d : {0, 2, 3, 4}) {
    expected += model.beta + 3e6 / std::min(kRates[1], kRates[d]);
    // The paper's model frees the sender after S = β + l / r_source; a slower receiver
    // stretches the transfer by l (1 / r_d − 1 / r_source): the last arrival ends it.
    const double sent = static_cast<double>(++turn) * (model.beta + 3e6 / kRates[1]);
    arrival = std::max(arrival, sent + std::max(0.0, 3e6 / kRates[d] - 3e6 / kRates[1]));
  }
  BOOST_TEST(plan.predicted_seconds == expected, tolerance(1e-9));
  BOOST_TEST(*plan.model_seconds == arrival, tolerance(1e-9));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(dataflow_checker)

// A correct plan, then one defect at a time: the checker names each.
BOOST_AUTO_TEST_CASE(refuses_broken_plans) {
  const coll::CollectiveModel model = model_of(6);
  const coll::CollectiveJob job = reduce_job(bj::JobKind::allreduce, 6, Algorithm::snf_fnf);
  const bj::CompiledPlan plan = coll::compile_collective(job, model);
  BOOST_TEST_REQUIRE(coll::check_dataflow_plans(job, plan.agent_plans).empty());
  const auto errors_after = [&](const std::function<void(std::map<std::string, bp::Plan>&)>& change) {
    auto plans = plan.agent_plans;
    change(plans);
    return joined(coll::check_dataflow_plans(job, plans));
  };
  const auto task_of = [](bp::Plan& p, const std::function<bool(const bp::Task&)>& which) -> bp::Task& {
    for (bp::Task& t : *p.mutable_steps(0)->mutable_tasks()) {
      if (which(t)) return t;
    }
    throw std::logic_error("no such task");
  };
  const auto is_combine = [](const bp::Task& t) { return t.has_combine(); };
  const auto is_send = [](const bp::Task& t) { return t.has_flow() && t.flow().send(); };
  // Find a node with a combine that waits for something, and a leaf (sends its data alone).
  std::string inner, leaf;
  for (const auto& [node, p] : plan.agent_plans) {
    bool combines = false;
    for (const bp::Task& t : p.steps(0).tasks()) combines = combines || t.has_combine();
    (combines ? inner : leaf) = node;
  }
  BOOST_TEST_REQUIRE(!inner.empty());
  BOOST_TEST_REQUIRE(!leaf.empty());

  // A combine that does not wait for its inputs races with their receives.
  BOOST_TEST(errors_after([&](auto& plans) {
               task_of(plans.at(inner), is_combine).clear_after();
             }).find("race on " + inner) != std::string::npos);
  // Folding one input twice counts a node's data twice.
  BOOST_TEST(errors_after([&](auto& plans) {
               bp::Combine& c = *task_of(plans.at(inner), is_combine).mutable_combine();
               *c.add_inputs() = c.inputs(1);
             }).find("twice") != std::string::npos);
  // A send nobody receives.
  BOOST_TEST(errors_after([&](auto& plans) {
               auto& tasks = *plans.at(plan.agent_plans.begin()->first).mutable_steps(0)->mutable_tasks();
               for (int i = 0; i < tasks.size(); ++i) {
                 if (tasks[i].has_flow() && !tasks[i].flow().send()) {
                   tasks.DeleteSubrange(i, 1);
                   break;
                 }
               }
             }).find("received by nobody") != std::string::npos);
  // The leaf's send waiting for its own receive of the result: a cycle.
  BOOST_TEST(errors_after([&](auto& plans) {
               bp::Plan& p = plans.at(leaf);
               const std::uint32_t receive =
                   task_of(p, [](const bp::Task& t) { return t.has_flow() && !t.flow().send(); }).id();
               task_of(p, is_send).add_after(receive);
             }).find("deadlock") != std::string::npos);
  // A receive into another file than the result: some node ends without it.
  BOOST_TEST(errors_after([&](auto& plans) {
               bp::Task& receive =
                   task_of(plans.at(leaf), [](const bp::Task& t) { return t.has_flow() && !t.flow().send(); });
               receive.mutable_flow()->mutable_chunks(0)->set_dst_file("elsewhere.bin");
             }).find("differ") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(refuses_a_multicast_delivered_twice_or_to_a_stranger) {
  const coll::CollectiveModel model = model_of(5);
  coll::CollectiveJob job = multicast_job(bj::JobKind::multicast, 5, Algorithm::flat);
  const bj::CompiledPlan plan = coll::compile_collective(job, model);
  BOOST_TEST_REQUIRE(coll::check_dataflow_plans(job, plan.agent_plans).empty());
  // The same plans for a job whose second message has one destination fewer.
  coll::CollectiveJob fewer = job;
  fewer.messages[1].destinations.pop_back();
  BOOST_TEST(joined(coll::check_dataflow_plans(fewer, plan.agent_plans)).find("not its to receive") !=
             std::string::npos);
  // And for a job with one more destination, which nobody serves.
  coll::CollectiveJob more = job;
  more.messages[1].destinations.push_back("n1");
  BOOST_TEST(joined(coll::check_dataflow_plans(more, plan.agent_plans))
                 .find("n1 receives 0 bytes of message 1, which has 500000") != std::string::npos);
  // A message delivered twice: one destination's receive and its sender's send doubled.
  bj::CompiledPlan twice = plan;
  const auto doubled = [&](bp::Plan& p, bool send) {
    for (const bp::Task& t : p.steps(0).tasks()) {
      if (!t.has_flow() || t.flow().send() != send || (send && t.flow().peer() != "n2")) continue;
      if (!send && t.flow().peer() != "n1") continue;
      bp::Task copy = t;
      copy.set_id(static_cast<std::uint32_t>(p.steps(0).tasks_size() + 1));
      copy.mutable_flow()->mutable_chunks(0)->set_transfer(999);
      copy.mutable_flow()->mutable_chunks(0)->set_stream_offset(1u << 30);
      *p.mutable_steps(0)->add_tasks() = copy;
      return;
    }
  };
  doubled(twice.agent_plans.at("n1"), true);
  doubled(twice.agent_plans.at("n2"), false);
  BOOST_TEST(!coll::check_dataflow_plans(job, twice.agent_plans).empty());
}

BOOST_AUTO_TEST_CASE(the_lockstep_checker_refuses_overfull_buffers_and_lost_deliveries) {
  const coll::CollectiveModel model = model_of(6);
  coll::CollectiveJob job = multicast_job(bj::JobKind::buffered_multicast, 6, Algorithm::ordered_coloring);
  bj::CompiledPlan plan = coll::compile_collective(job, model);
  BOOST_TEST_REQUIRE(coll::check_buffered_plan(job, model, plan).empty());
  bj::CompiledPlan lost = plan;
  lost.steps.back().flows.pop_back();
  BOOST_TEST(joined(coll::check_buffered_plan(job, model, lost)).find("never receives") != std::string::npos);
  coll::CollectiveJob one_buffer = job;
  one_buffer.buffers = 0;
  BOOST_TEST(joined(coll::check_buffered_plan(one_buffer, model, plan)).find("buffers") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
