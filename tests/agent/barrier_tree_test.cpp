// The self-paced steps' barrier as logic: who each member's partners are and how deep the
// tree is (protocol/barrier_partners.h), and when one member's barrier decides
// (agent/barrier_votes.h).
#include "agent/barrier_votes.h"
#include "protocol/barrier_partners.h"

#include <boost/test/unit_test.hpp>

namespace ba = baton::agent;
namespace bp = baton::protocol;

BOOST_AUTO_TEST_SUITE(barrier_tree)

BOOST_AUTO_TEST_CASE(partners_form_a_tree_of_fan_out_four) {
  const bp::BarrierPartners root = bp::barrier_partners(0, 10);
  BOOST_TEST(!root.parent.has_value());
  BOOST_TEST(root.children == (std::vector<std::size_t>{1, 2, 3, 4}));
  const bp::BarrierPartners second = bp::barrier_partners(2, 10);
  BOOST_TEST((second.parent == std::optional<std::size_t>(0)));
  BOOST_TEST(second.children == (std::vector<std::size_t>{9}));  // 9 and nothing past the last rank
  BOOST_TEST(bp::barrier_partners(1, 10).children == (std::vector<std::size_t>{5, 6, 7, 8}));
  BOOST_TEST((bp::barrier_partners(8, 10).parent == std::optional<std::size_t>(1)));
  BOOST_TEST(bp::barrier_partners(8, 10).children.empty());
  BOOST_TEST(bp::barrier_partners(0, 1).children.empty());  // one member: its own decision
}

BOOST_AUTO_TEST_CASE(every_member_but_the_root_is_the_child_of_its_parent_once) {
  for (const std::size_t members : {2u, 5u, 17u, 1024u}) {
    std::vector<int> parents(members, 0);
    for (std::size_t rank = 0; rank < members; ++rank) {
      for (const std::size_t child : bp::barrier_partners(rank, members).children) {
        ++parents[child];
        BOOST_TEST((bp::barrier_partners(child, members).parent == std::optional<std::size_t>(rank)));
      }
    }
    BOOST_TEST(parents[0] == 0);
    for (std::size_t rank = 1; rank < members; ++rank) BOOST_TEST(parents[rank] == 1, "rank " << rank);
  }
}

BOOST_AUTO_TEST_CASE(hops_grow_with_the_log_of_the_members) {
  BOOST_TEST(bp::barrier_hops(1) == 0u);
  BOOST_TEST(bp::barrier_hops(2) == 2u);
  BOOST_TEST(bp::barrier_hops(5) == 2u);
  BOOST_TEST(bp::barrier_hops(6) == 4u);
  BOOST_TEST(bp::barrier_hops(21) == 4u);
  BOOST_TEST(bp::barrier_hops(22) == 6u);
  BOOST_TEST(bp::barrier_hops(1024) == 10u);
}

BOOST_AUTO_TEST_CASE(the_subtree_votes_once_the_member_and_every_child_voted) {
  ba::BarrierVotes votes(bp::barrier_partners(1, 10));  // children 5..8, parent 0
  BOOST_TEST(!votes.child_voted(5, true));
  BOOST_TEST(!votes.child_voted(6, true));
  BOOST_TEST(!votes.subtree_vote().has_value());
  votes.own_vote(true);
  BOOST_TEST(!votes.subtree_vote().has_value());  // 7 and 8 still missing
  BOOST_TEST(votes.children_missing() == (std::vector<std::size_t>{7, 8}));
  BOOST_TEST(!votes.child_voted(7, true));
  BOOST_TEST(!votes.child_voted(8, true));
  BOOST_TEST((votes.subtree_vote() == std::optional<bool>(true)));
  BOOST_TEST(!votes.decision().has_value());  // a member that is not the root waits for its parent
  BOOST_TEST(!votes.parent_decided(0, true));
  BOOST_TEST((votes.decision() == std::optional<bool>(true)));
}

BOOST_AUTO_TEST_CASE(one_not_ok_vote_makes_the_root_decide_to_stop) {
  ba::BarrierVotes root(bp::barrier_partners(0, 3));  // children 1 and 2
  root.own_vote(true);
  BOOST_TEST(!root.child_voted(1, true));
  BOOST_TEST(!root.decision().has_value());
  BOOST_TEST(!root.child_voted(2, false));
  BOOST_TEST((root.decision() == std::optional<bool>(false)));
  ba::BarrierVotes leaf(bp::barrier_partners(1, 3));
  leaf.own_vote(false);
  BOOST_TEST((leaf.subtree_vote() == std::optional<bool>(false)));
}

BOOST_AUTO_TEST_CASE(votes_from_anyone_but_a_partner_or_twice_are_refused) {
  ba::BarrierVotes votes(bp::barrier_partners(1, 10));
  BOOST_TEST(votes.child_voted(2, true)->reason == "rank 2 is not a child of this member");
  BOOST_TEST(!votes.child_voted(5, true));
  BOOST_TEST(votes.child_voted(5, false)->reason == "rank 5 voted twice");
  BOOST_TEST(votes.parent_decided(5, true)->reason == "rank 5 is not the parent of this member");
  BOOST_TEST(!votes.parent_decided(0, false));
  BOOST_TEST(votes.parent_decided(0, true)->reason == "the parent decided twice");
  BOOST_TEST((votes.decision() == std::optional<bool>(false)));
}

BOOST_AUTO_TEST_SUITE_END()
