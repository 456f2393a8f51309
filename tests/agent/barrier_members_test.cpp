// A self-paced plan's members as the agent reads them (agent/barrier_members.h): the
// coordinator's form (the count, the node and its barrier partners with their ranks) and
// the full list are read alike; a list missing a partner, naming a member that is not one,
// a rank past the count or a rank twice, or without an address, is refused naming it.
#include "agent/barrier_members.h"

#include <boost/test/unit_test.hpp>

#include <initializer_list>
#include <string>
#include <utility>

namespace ba = baton::agent;
namespace bp = baton::protocol;

namespace {

// A plan of `count` members listing (rank, node) pairs, ranks given.
bp::Plan partner_plan(std::uint32_t count, std::initializer_list<std::pair<std::uint32_t, std::string>> listed) {
  bp::Plan plan;
  plan.set_member_count(count);
  for (const auto& [rank, node] : listed) {
    bp::Member* member = plan.add_members();
    member->set_node(node);
    member->set_data_address("127.0.0.1:" + std::to_string(7000 + rank));
    member->set_rank(rank);
  }
  return plan;
}

std::string refusal(const bp::Plan& plan, const std::string& self) {
  ba::BarrierMembers members;
  const auto wrong = ba::read_barrier_members(plan, self, members);
  return wrong ? wrong->reason : "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(barrier_members)

BOOST_AUTO_TEST_CASE(the_coordinators_form_lists_the_node_and_its_partners) {
  // Of 1 024 members, rank 5's partners are its parent 1 and children 21 .. 24.
  const bp::Plan plan = partner_plan(1024, {{1, "n1"}, {5, "n5"}, {21, "n21"}, {22, "n22"}, {23, "n23"}, {24, "n24"}});
  ba::BarrierMembers members;
  BOOST_REQUIRE(!ba::read_barrier_members(plan, "n5", members));
  BOOST_TEST(members.rank == 5u);
  BOOST_TEST(members.count == 1024u);
  BOOST_TEST(members.by_rank.size() == 6u);
  BOOST_TEST(members.by_rank.at(21).data_address() == "127.0.0.1:7021");
}

BOOST_AUTO_TEST_CASE(the_full_list_is_read_as_ranks_in_order_keeping_the_partners) {
  bp::Plan plan;
  for (int i = 0; i < 7; ++i) {
    bp::Member* member = plan.add_members();
    member->set_node("m" + std::to_string(i));
    member->set_data_address("127.0.0.1:" + std::to_string(7000 + i));
  }
  ba::BarrierMembers members;
  BOOST_REQUIRE(!ba::read_barrier_members(plan, "m1", members));
  BOOST_TEST(members.rank == 1u);
  BOOST_TEST(members.count == 7u);
  BOOST_TEST(members.by_rank.size() == 4u);  // 0, itself, 5, 6
  BOOST_TEST(members.by_rank.contains(6));
  BOOST_TEST(!members.by_rank.contains(2));
}

BOOST_AUTO_TEST_CASE(a_missing_partner_is_refused_naming_it) {
  const bp::Plan plan = partner_plan(1024, {{1, "n1"}, {5, "n5"}, {21, "n21"}, {22, "n22"}, {24, "n24"}});
  BOOST_TEST(refusal(plan, "n5") == "plan's members lack rank 23, a barrier partner of this node's rank 5");
}

BOOST_AUTO_TEST_CASE(a_member_that_is_not_a_partner_is_refused_naming_it) {
  const bp::Plan plan = partner_plan(6, {{0, "n0"}, {1, "n1"}, {5, "n5"}, {2, "n2"}});
  BOOST_TEST(refusal(plan, "n1") == "plan's members list rank 2 (n2), not a barrier partner of this node's rank 1");
}

BOOST_AUTO_TEST_CASE(ranks_past_the_count_or_named_twice_are_refused) {
  BOOST_TEST(refusal(partner_plan(2, {{0, "n0"}, {2, "n2"}}), "n0") ==
             "plan's members: member 1 names rank 2 of 2 members");
  BOOST_TEST(refusal(partner_plan(2, {{0, "n0"}, {0, "n1"}}), "n0") == "plan's members: rank 0 is named twice");
  BOOST_TEST(refusal(partner_plan(2, {{0, "n0"}, {1, "n0"}}), "n0") == "plan's members: node n0 is named twice");
  BOOST_TEST(refusal(partner_plan(2, {{0, "n0"}, {1, "n1"}}), "n9") == "plan's members do not name this node (n9)");
  bp::Plan no_address = partner_plan(2, {{0, "n0"}, {1, "n1"}});
  no_address.mutable_members(1)->clear_data_address();
  BOOST_TEST(refusal(no_address, "n0") == "plan's members: member 1 lacks a node or a data address");
}

BOOST_AUTO_TEST_CASE(a_full_list_naming_ranks_out_of_order_is_refused) {
  bp::Plan plan;
  for (const std::uint32_t rank : {1u, 0u}) {
    bp::Member* member = plan.add_members();
    member->set_node("m" + std::to_string(rank));
    member->set_data_address("127.0.0.1:7000");
    member->set_rank(rank);
  }
  BOOST_TEST(refusal(plan, "m0") ==
             "plan's members: member 0 names rank 1, not its place in the list (the plan has no member_count)");
}

BOOST_AUTO_TEST_SUITE_END()
