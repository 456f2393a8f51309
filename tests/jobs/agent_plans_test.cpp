// The agents' plans: each node's flows, peers, rates, and stream offsets that lay every
// receiver's incoming chunks of a step end to end (docs/runtime.md, "The data plane").
#include "coordinator/jobs/agent_plans.h"
#include "error/error.h"
#include "protocol/envelope.h"
#include "protocol/frame.h"
#include "security/hmac.h"

#include <boost/test/unit_test.hpp>

#include <map>
#include <random>
#include <tuple>

namespace bj = baton::jobs;
namespace bp = baton::protocol;
namespace kpbs = baton::schedule::kpbs;

namespace {

std::map<std::string, std::string> addresses(const bj::Clusters& c) {
  std::map<std::string, std::string> out;
  int port = 9000;
  for (const auto* cluster : {&c.senders, &c.receivers})
    for (const std::string& node : *cluster) out[node] = "10.0.0.1:" + std::to_string(port++);
  return out;
}

bj::Chunk chunk(std::size_t transfer, std::uint64_t src, std::uint64_t dst, std::uint64_t length) {
  return {transfer, src, dst, length};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_plans)

// Step 0: a0→b1 (two chunks) and a1→b1 — all-at-once style, two senders into b1.
// Step 1: a0→b0 and a1→b1.
BOOST_AUTO_TEST_CASE(two_by_two_by_hand) {
  const bj::Clusters c{{"a0", "a1"}, {"b0", "b1"}};
  const std::vector<bj::TransferSpec> t{{"a0", "x", 100, 30, "b1", "y", 0},
                                        {"a1", "z", 0, 50, "b1", "y", 30},
                                        {"a0", "x", 0, 20, "b0", "w", 5},
                                        {"a1", "z", 50, 40, "b1", "v", 0}};
  bj::CompiledPlan plan;
  plan.k = 2;
  plan.flow_rate = 1000;
  plan.steps.resize(3);
  // Listed receiver-side out of sender order on purpose: a1's flow first.
  plan.steps[0].flows = {{1, 1, 50, {chunk(1, 0, 30, 50)}}, {0, 1, 30, {chunk(0, 100, 0, 10), chunk(0, 110, 10, 20)}}};
  plan.steps[0].predicted_seconds = 0.5;
  plan.steps[1].flows = {{0, 0, 20, {chunk(2, 0, 5, 20)}}, {1, 1, 40, {chunk(3, 50, 0, 40)}}};
  plan.steps[1].predicted_seconds = 0.25;
  plan.steps[2].predicted_seconds = 0.125;  // an empty step still reaches every node

  const auto plans = bj::build_agent_plans(plan, c, t, addresses(c), {"job-7", 7});
  BOOST_REQUIRE_EQUAL(plans.size(), 4u);
  for (const auto& [node, p] : plans) {
    BOOST_TEST(p.job() == "job-7");
    BOOST_TEST(p.job_number() == 7u);
    BOOST_TEST(p.k() == 2);
    BOOST_REQUIRE_EQUAL(p.steps_size(), 3);
    for (int s = 0; s < 3; ++s) {
      BOOST_TEST(p.steps(s).index() == static_cast<std::uint32_t>(s));
      BOOST_TEST(p.steps(s).predicted_seconds() == plan.steps[s].predicted_seconds);
    }
    BOOST_TEST(p.steps(2).flows_size() == 0);
  }

  // b1, step 0: a0's chunks first (sender order), then a1's.
  const bp::Step& b1s0 = plans.at("b1").steps(0);
  BOOST_REQUIRE_EQUAL(b1s0.flows_size(), 2);
  BOOST_TEST(b1s0.flows(0).peer() == "a0");
  BOOST_TEST(!b1s0.flows(0).send());
  BOOST_TEST(b1s0.flows(0).peer_address().empty());
  BOOST_TEST(b1s0.flows(0).rate() == 1000.0);
  BOOST_REQUIRE_EQUAL(b1s0.flows(0).chunks_size(), 2);
  BOOST_TEST(b1s0.flows(0).chunks(0).stream_offset() == 0u);
  BOOST_TEST(b1s0.flows(0).chunks(1).stream_offset() == 10u);
  BOOST_TEST(b1s0.flows(1).peer() == "a1");
  BOOST_TEST(b1s0.flows(1).chunks(0).stream_offset() == 30u);
  const bp::Chunk& ch = b1s0.flows(1).chunks(0);
  BOOST_TEST(ch.transfer() == 1u);
  BOOST_TEST(ch.src_file() == "z");
  BOOST_TEST(ch.src_offset() == 0u);
  BOOST_TEST(ch.dst_file() == "y");
  BOOST_TEST(ch.dst_offset() == 30u);
  BOOST_TEST(ch.length() == 50u);

  // The senders' copies of step 0.
  const bp::Step& a0s0 = plans.at("a0").steps(0);
  BOOST_REQUIRE_EQUAL(a0s0.flows_size(), 1);
  BOOST_TEST(a0s0.flows(0).send());
  BOOST_TEST(a0s0.flows(0).peer() == "b1");
  BOOST_TEST(a0s0.flows(0).peer_address() == "10.0.0.1:9003");
  BOOST_TEST(a0s0.flows(0).chunks(1).stream_offset() == 10u);
  BOOST_TEST(a0s0.flows(0).chunks(1).src_offset() == 110u);
  BOOST_TEST(plans.at("a1").steps(0).flows(0).chunks(0).stream_offset() == 30u);
  BOOST_TEST(plans.at("b0").steps(0).flows_size() == 0);

  // Step 1: each receiver's stream restarts at 0.
  BOOST_TEST(plans.at("b0").steps(1).flows(0).peer() == "a0");
  BOOST_TEST(plans.at("b0").steps(1).flows(0).chunks(0).stream_offset() == 0u);
  BOOST_TEST(plans.at("b1").steps(1).flows(0).peer() == "a1");
  BOOST_TEST(plans.at("b1").steps(1).flows(0).chunks(0).stream_offset() == 0u);
  BOOST_TEST(plans.at("a1").steps(1).flows(0).peer_address() == "10.0.0.1:9003");

  // Flows that share the links (all-at-once) are unpaced: every rate is 0.
  bj::CompiledPlan shared = plan;
  shared.shared_links = true;
  const auto unpaced = bj::build_agent_plans(shared, c, t, addresses(c), {"job-7", 7});
  for (const auto& [node, p] : unpaced) {
    BOOST_TEST(p.shared_links());  // the agents hold such a plan to no 1-port
    for (const bp::Step& s : p.steps())
      for (const bp::Flow& f : s.flows()) BOOST_TEST(f.rate() == 0.0);
  }
  for (const auto& [node, p] : plans) BOOST_TEST(!p.shared_links());
}

BOOST_AUTO_TEST_CASE(missing_address_names_the_node) {
  const bj::Clusters c{{"a0"}, {"b0", "b1"}};
  const std::vector<bj::TransferSpec> t{{"a0", "x", 0, 10, "b0", "y", 0}};
  const bj::CompiledPlan plan = bj::compile_plan(c, t, {1e6, 1e6, 1e6, 0.001, {}, {}}, kpbs::Algorithm::oggp);
  auto a = addresses(c);
  a.erase("b1");  // a node without flows still needs one: it must be reachable as an agent
  try {
    bj::build_agent_plans(plan, c, t, a, {"j", 1});
    BOOST_FAIL("no exception");
  } catch (const baton::error::InvalidInput& e) {
    BOOST_TEST(std::string(e.what()).find("'b1'") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(random_jobs_have_consistent_streams) {
  std::mt19937_64 rng(17);
  std::uniform_int_distribution<std::size_t> nodes(1, 5), count(1, 25);
  std::uniform_int_distribution<std::uint64_t> length(1, 3'000'000);
  for (int n = 0; n < 40; ++n) {
    bj::Clusters c;
    for (std::size_t i = 0, p = nodes(rng); i < p; ++i) c.senders.push_back("a" + std::to_string(i));
    for (std::size_t j = 0, q = nodes(rng); j < q; ++j) c.receivers.push_back("b" + std::to_string(j));
    std::vector<bj::TransferSpec> t;
    std::map<std::string, std::uint64_t> end_of;
    for (std::size_t i = 0, m = count(rng); i < m; ++i) {
      const std::string src = c.senders[rng() % c.senders.size()], dst = c.receivers[rng() % c.receivers.size()];
      const std::uint64_t len = length(rng);
      t.push_back({src, "in", rng() % 1000, len, dst, "out", end_of[dst]});
      end_of[dst] += len;
    }
    for (kpbs::Algorithm alg : {kpbs::Algorithm::oggp, kpbs::Algorithm::all_at_once}) {
      BOOST_TEST_CONTEXT("#" << n << " " << kpbs::name(alg)) {
        const bj::CompiledPlan plan = bj::compile_plan(c, t, {12.5e6, 12.5e6, 37.5e6, 0.002, {}, {}}, alg);
        const auto plans = bj::build_agent_plans(plan, c, t, addresses(c), {"j", 3});
        BOOST_TEST(plans.size() == c.senders.size() + c.receivers.size());
        // (step, receiver, stream_offset) -> (transfer, length, src_offset, dst_offset), per side.
        using Key = std::tuple<std::uint32_t, std::string, std::uint64_t>;
        using Value = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t>;
        std::map<Key, Value> sent, received;
        std::vector<std::uint64_t> per_transfer(t.size(), 0);
        for (const auto& [node, p] : plans) {
          BOOST_TEST(p.steps_size() == static_cast<int>(plan.steps.size()));
          for (const bp::Step& s : p.steps()) {
            for (const bp::Flow& f : s.flows()) {
              BOOST_TEST(f.rate() == (alg == kpbs::Algorithm::all_at_once ? 0.0 : plan.flow_rate));
              const std::string& receiver = f.send() ? f.peer() : node;
              if (f.send()) BOOST_TEST(f.peer_address() == addresses(c).at(f.peer()));
              for (const bp::Chunk& ch : f.chunks()) {
                const Value v{ch.transfer(), ch.length(), ch.src_offset(), ch.dst_offset()};
                auto& side = f.send() ? sent : received;
                BOOST_TEST(side.emplace(Key{s.index(), receiver, ch.stream_offset()}, v).second);
                if (!f.send()) per_transfer.at(ch.transfer()) += ch.length();
              }
            }
          }
        }
        BOOST_TEST((sent == received));
        // Per receiver and step, ranges sorted by offset start at 0 and touch end to end.
        std::map<std::pair<std::uint32_t, std::string>, std::uint64_t> next;
        for (const auto& [key, value] : received) {
          std::uint64_t& expected = next[{std::get<0>(key), std::get<1>(key)}];
          BOOST_TEST(std::get<2>(key) == expected);
          expected += std::get<1>(value);
        }
        for (std::size_t i = 0; i < t.size(); ++i) BOOST_TEST(per_transfer[i] == t[i].length);
      }
    }
  }
}

namespace {

// a0 sends `count` transfers, alternately to b0 and b1, each naming files of ~4 KB: a0's
// plan holds every chunk, each receiver's half of them.
std::map<std::string, bp::Plan> plans_with_long_names(std::size_t count) {
  const bj::Clusters c{{"a0"}, {"b0", "b1"}};
  std::vector<bj::TransferSpec> t;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string name = std::string(4000, 'f') + std::to_string(i);
    t.push_back({"a0", name, 0, 1000, i % 2 == 0 ? "b0" : "b1", name, 0});
  }
  const bj::CompiledPlan plan = bj::compile_plan(c, t, {1e6, 1e6, 1e6, 0.001, {}, {}}, kpbs::Algorithm::oggp);
  return bj::build_agent_plans(plan, c, t, addresses(c), {"job-9", 9});
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_plan_too_large_for_one_control_frame_names_the_node) {
  try {
    plans_with_long_names(2400);  // a0: ~19.6 MB; b0 and b1: ~9.8 MB each
    BOOST_FAIL("a plan over the frame limit was built");
  } catch (const bj::PlanTooLarge& e) {
    const std::string what = e.what();
    BOOST_TEST_MESSAGE(what);
    BOOST_TEST(what.find("node 'a0'") != std::string::npos, what);
    BOOST_TEST(what.find(std::to_string(bj::max_agent_plan_bytes()) + " bytes") != std::string::npos, what);
  }
}

BOOST_AUTO_TEST_CASE(a_plan_under_the_limit_fits_in_a_sealed_frame) {
  const auto plans = plans_with_long_names(1800);  // a0: ~14.7 MB
  const bp::Plan& biggest = plans.at("a0");
  BOOST_TEST(biggest.ByteSizeLong() <= bj::max_agent_plan_bytes());
  BOOST_TEST(biggest.ByteSizeLong() > bj::max_agent_plan_bytes() * 3 / 4);  // the test is near the limit
  // What the control session sends: the Envelope, then the MAC, in one frame.
  bp::Envelope envelope;
  *envelope.mutable_plan() = biggest;
  const std::size_t overhead = bp::encode(envelope).size() + baton::security::kMacBytes - biggest.ByteSizeLong();
  BOOST_TEST(overhead <= bp::kDefaultMaxFrame - bj::max_agent_plan_bytes());
  std::string frame;
  BOOST_CHECK_NO_THROW(bp::append_frame(frame, bp::encode(envelope) + std::string(baton::security::kMacBytes, 'm')));
}

BOOST_AUTO_TEST_CASE(too_many_steps_for_all_the_nodes_are_refused_before_building) {
  // 4096 + 4096 nodes, each plan listing 32769 steps: at least 512 MiB of plans. Building
  // them first would take tens of GiB.
  bj::Clusters c;
  for (int i = 0; i < 4096; ++i) {
    c.senders.push_back("a" + std::to_string(i));
    c.receivers.push_back("b" + std::to_string(i));
  }
  bj::CompiledPlan plan;
  plan.k = 1;
  plan.steps.resize(bj::kMaxTotalPlanBytes / 2 / 8192 + 1);
  try {
    bj::build_agent_plans(plan, c, {}, addresses(c), {"job-10", 10});
    BOOST_FAIL("a plan with too many steps was built");
  } catch (const bj::PlanTooLarge& e) {
    const std::string what = e.what();
    BOOST_TEST(what.find("32769 steps") != std::string::npos, what);
    BOOST_TEST(what.find("8192 nodes") != std::string::npos, what);
  }
}

BOOST_AUTO_TEST_SUITE_END()
