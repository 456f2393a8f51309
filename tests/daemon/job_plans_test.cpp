// A lockstep job's plans as the coordinator sends them (coordinator/daemon/job_plans.h): each
// lists only its node and that node's barrier partners with their ranks, so that a plan's
// size does not grow with the job's, and each is what an agent takes (its own reading,
// agent/barrier_members.h, is the check).
#include "coordinator/daemon/job_plans.h"
#include "agent/barrier_members.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>

namespace ba = baton::agent;
namespace bc = baton::coordinator;
namespace bj = baton::jobs;

namespace {

std::string name(const char* prefix, std::size_t i) {
  std::string digits = std::to_string(i);
  return prefix + std::string(4 - digits.size(), '0') + digits;  // sorted as numbered
}

const baton::schedule::kpbs::Platform kPlanPlatform{.sender_rate = 1e6,
                                                    .receiver_rate = 1e6,
                                                    .backbone_rate = 1e9,
                                                    .step_startup = 0.001,
                                                    .sender_rates = {},
                                                    .receiver_rates = {}};

}  // namespace

BOOST_AUTO_TEST_SUITE(job_plans)

BOOST_AUTO_TEST_CASE(each_plan_of_a_large_job_lists_its_node_and_partners_only_and_agents_take_it) {
  constexpr std::size_t pairs = 512;  // 1 024 nodes: senders s0000.., receivers r0000..
  bc::JobSpec spec;
  spec.platform = kPlanPlatform;
  bc::JobPlans::NodeMap storages, addresses;
  for (std::size_t i = 0; i < pairs; ++i) {
    spec.clusters.senders.push_back(name("s", i));
    spec.clusters.receivers.push_back(name("r", i));
    spec.transfers.push_back({name("s", i), "in.bin", 0, 4096, name("r", i), "out.bin", 0});
  }
  std::uint32_t port = 10000;
  for (const std::string& node : spec.nodes()) {
    storages[node] = "storage-" + node;
    addresses[node] = "127.0.0.1:" + std::to_string(port++);
  }
  const bj::CompiledPlan compiled = bj::compile_plan(spec.clusters, spec.transfers, spec.platform, spec.algorithm);
  const bc::JobPlans plans(7, "2026-12-06T00:00:00Z", spec, compiled, storages, addresses);
  BOOST_TEST_REQUIRE(plans.by_node().size() == 2 * pairs);

  std::vector<std::string> ranked;  // rank order: the nodes' order
  for (const auto& [node, plan] : plans.by_node()) ranked.push_back(node);
  BOOST_TEST(std::ranges::is_sorted(ranked));
  std::size_t listed = 0;
  for (std::size_t rank = 0; rank < ranked.size(); ++rank) {
    const baton::protocol::Plan& plan = plans.by_node().at(ranked[rank]);
    BOOST_TEST(plan.member_count() == 2 * pairs);
    BOOST_TEST(plan.members_size() <= 6);  // a parent, itself, four children
    listed += static_cast<std::size_t>(plan.members_size());
    for (const baton::protocol::Member& member : plan.members()) {
      BOOST_TEST(member.node() == ranked.at(member.rank()));  // each rank is its node's place
      BOOST_TEST(member.data_address() == addresses.at(member.node()));
    }
    ba::BarrierMembers members;
    const auto refused = ba::read_barrier_members(plan, ranked[rank], members);
    BOOST_TEST(!refused.has_value(), ranked[rank] << ": " << (refused ? refused->reason : ""));
    BOOST_TEST(members.rank == rank);
  }
  // Every member once as itself, and twice more for each tree edge (parent and child): N + 2(N - 1).
  BOOST_TEST(listed == 2 * pairs + 2 * (2 * pairs - 1));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(job_plans_kept)

// "keep_plan" (docs/runtime.md): every node's plan says the agent keeps it; an in-place job
// cannot, since an exchange would never put its staged destinations in place.
BOOST_AUTO_TEST_CASE(a_kept_jobs_plans_say_so_and_an_in_place_one_is_refused_naming_the_node) {
  bc::JobSpec spec;
  spec.platform = kPlanPlatform;
  spec.clusters = {.senders = {"a"}, .receivers = {"b"}};
  spec.transfers = {{"a", "in.bin", 0, 4096, "b", "out.bin", 0}};
  const bc::JobPlans::NodeMap storages{{"a", "storage-a"}, {"b", "storage-b"}},
      addresses{{"a", "127.0.0.1:1"}, {"b", "127.0.0.1:2"}};
  const bj::CompiledPlan compiled = bj::compile_plan(spec.clusters, spec.transfers, spec.platform, spec.algorithm);
  BOOST_TEST(!bc::JobPlans(1, "t", spec, compiled, storages, addresses).by_node().at("a").keep());
  spec.keep_plan = true;
  const bc::JobPlans kept(2, "t", spec, compiled, storages, addresses);
  for (const auto& [node, plan] : kept.by_node()) {
    BOOST_TEST(plan.keep(), node);
    BOOST_TEST(plan.member_count() == 2u, node);
  }
  // A swap: each node reads the file the job writes on it, in place.
  spec.clusters = {.senders = {"a", "b"}, .receivers = {"b", "a"}};
  spec.transfers = {{"a", "x", 0, 4096, "b", "y", 0}, {"b", "y", 0, 4096, "a", "x", 0}};
  const bj::CompiledPlan in_place = bj::compile_plan(spec.clusters, spec.transfers, spec.platform, spec.algorithm);
  BOOST_CHECK_EXCEPTION(bc::JobPlans(3, "t", spec, in_place, storages, addresses), baton::error::InvalidInput,
                        [](const baton::error::InvalidInput& e) {
                          return std::string(e.what()).starts_with("keep_plan: node a reads what the job writes");
                        });
}

BOOST_AUTO_TEST_SUITE_END()
