// The barrier between self-paced steps over real data planes on loopback
// (agent/step_barrier.h): every member passes once every member voted ok, on plans listing
// every member or only each one's partners; a member's not-ok vote stops every member; a
// member that never votes stalls its partners until their deadline, which names it; a vote
// from outside the job, or from a member that is not a partner, is refused.
#include "agent/step_barrier.h"
#include "tests/agent/step_harness.h"

#include <boost/test/unit_test.hpp>

#include <asio/co_spawn.hpp>

#include <optional>
#include <vector>

using namespace baton::agent::test;

namespace {

// How a plan lists the job's members: all of them in rank order, or (the coordinator's
// form) with the count, the node itself and its barrier partners with their ranks.
enum class Listing { everyone, partners };

// Rank r's partners as docs/runtime.md states the tree: parent (r - 1) / 4, children
// 4r + 1 .. 4r + 4 below the count; with r itself.
std::vector<std::size_t> listed_ranks(std::size_t r, std::size_t count) {
  std::vector<std::size_t> out;
  if (r > 0) out.push_back((r - 1) / 4);
  out.push_back(r);
  for (std::size_t c = 4 * r + 1; c <= 4 * r + 4 && c < count; ++c) out.push_back(c);
  return out;
}

// `count` agents on one io_context, each holding a plan of one job whose members they all
// are (rank order: m0, m1, ...), routed so their data planes take its votes.
struct Members {
  explicit Members(std::size_t count, Listing listing = Listing::everyone) {
    for (std::size_t i = 0; i < count; ++i) nodes.push_back(std::make_unique<Node>(io, "m" + std::to_string(i)));
    bp::Plan plan;
    plan.set_job("job-7");
    plan.set_job_number(7);
    plan.set_k(1);
    plan.set_kind("redistribution");
    plan.add_steps()->set_index(0);
    const auto add = [&](bp::Plan& to, std::size_t rank) {
      bp::Member* member = to.add_members();
      member->set_node(nodes[rank]->identity.node_id);
      member->set_data_address(nodes[rank]->data->address());
      if (listing == Listing::partners) member->set_rank(static_cast<std::uint32_t>(rank));
    };
    for (std::size_t rank = 0; rank < count; ++rank) {
      bp::Plan own = plan;
      if (listing == Listing::everyone) {
        for (std::size_t r = 0; r < count; ++r) add(own, r);
      } else {
        own.set_member_count(static_cast<std::uint32_t>(count));
        for (const std::size_t r : listed_ranks(rank, count)) add(own, r);
      }
      runners.push_back(&nodes[rank]->receiver(own));
    }
  }
  // Every data plane stopped, and the coroutines left let end, before the contexts go.
  ~Members() {
    std::size_t stopped = 0;
    for (const auto& node : nodes)
      asio::co_spawn(io, node->data->stop(), [&stopped](std::exception_ptr) { ++stopped; });
    io.restart();
    const auto guard = std::chrono::steady_clock::now() + 10s;
    while (stopped < nodes.size() && std::chrono::steady_clock::now() < guard) io.run_one_for(100ms);
    BOOST_TEST(stopped == nodes.size());
    io.run_for(1s);
  }

  // Each member in `voting` votes (ok unless in `not_ok`) in the barrier of step 0 of
  // range 1, with `deadline` from now; returns each one's outcome (nullopt: passed).
  std::vector<std::optional<std::string>> pass(const std::vector<std::size_t>& voting,
                                               const std::vector<std::size_t>& not_ok,
                                               std::chrono::milliseconds deadline) {
    std::vector<std::optional<std::string>> outcomes(nodes.size());
    std::size_t ended = 0;
    const auto until = std::chrono::steady_clock::now() + deadline;
    for (const std::size_t rank : voting) {
      const bool ok = std::ranges::find(not_ok, rank) == not_ok.end();
      asio::co_spawn(
          io,
          [&, rank, ok]() -> asio::awaitable<void> {
            const std::optional<baton::error::Refusal> why = co_await runners[rank]->barrier()->pass(1, 0, ok, until);
            if (why) outcomes[rank] = why->reason;
            ++ended;
          },
          asio::detached);
    }
    io.restart();
    const auto guard = std::chrono::steady_clock::now() + deadline + 10s;  // against a hang only
    while (ended < voting.size() && std::chrono::steady_clock::now() < guard) io.run_one_for(100ms);
    BOOST_REQUIRE_EQUAL(ended, voting.size());
    return outcomes;
  }

  asio::io_context io;
  std::vector<std::unique_ptr<Node>> nodes;
  std::vector<ba::StepRunner*> runners;
};

std::vector<std::size_t> ranks(std::size_t count) {
  std::vector<std::size_t> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = i;
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(step_barrier)

BOOST_AUTO_TEST_CASE(every_member_passes_when_every_member_voted_ok) {
  Members m(7);  // two levels under the root: ranks 5 and 6 are rank 1's children
  const auto outcomes = m.pass(ranks(7), {}, 10s);
  for (std::size_t rank = 0; rank < 7; ++rank) BOOST_TEST(!outcomes[rank].has_value(), *outcomes[rank]);
  BOOST_TEST(m.runners[6]->barrier()->rank() == 6u);
}

BOOST_AUTO_TEST_CASE(every_member_passes_on_plans_listing_only_its_partners) {
  Members m(22, Listing::partners);  // three levels under the root: rank 21 is rank 5's child
  const auto outcomes = m.pass(ranks(22), {}, 10s);
  for (std::size_t rank = 0; rank < 22; ++rank) BOOST_TEST(!outcomes[rank].has_value(), *outcomes[rank]);
  BOOST_TEST(m.runners[21]->barrier()->rank() == 21u);
}

BOOST_AUTO_TEST_CASE(one_not_ok_vote_stops_every_member) {
  Members m(7);
  const auto outcomes = m.pass(ranks(7), {6}, 10s);  // a leaf's: up two levels, down to all
  for (std::size_t rank = 0; rank < 7; ++rank) {
    BOOST_REQUIRE(outcomes[rank].has_value());
    BOOST_TEST(*outcomes[rank] == "step 0 failed on a member of the job (each says why)");
  }
}

BOOST_AUTO_TEST_CASE(a_member_that_never_votes_stalls_the_others_until_their_deadline) {
  Members m(6);
  const auto outcomes = m.pass({0, 1, 2, 3, 4}, {}, 500ms);  // rank 5, rank 1's child, is silent
  BOOST_REQUIRE(outcomes[1].has_value());
  BOOST_TEST(*outcomes[1] == "the barrier after step 0 timed out waiting for rank 5 (m5)'s vote");
  BOOST_REQUIRE(outcomes[0].has_value());
  BOOST_TEST(*outcomes[0] == "the barrier after step 0 timed out waiting for rank 1 (m1)'s vote");
  BOOST_REQUIRE(outcomes[2].has_value());
  BOOST_TEST(*outcomes[2] == "the barrier after step 0 timed out waiting for the decision from rank 0 (m0)");
}

BOOST_AUTO_TEST_CASE(on_plans_listing_only_partners_a_silent_member_is_named_by_its_partners) {
  Members m(6, Listing::partners);
  const auto outcomes = m.pass({0, 1, 2, 3, 4}, {}, 500ms);
  BOOST_REQUIRE(outcomes[1].has_value());
  BOOST_TEST(*outcomes[1] == "the barrier after step 0 timed out waiting for rank 5 (m5)'s vote");
  BOOST_REQUIRE(outcomes[3].has_value());
  BOOST_TEST(*outcomes[3] == "the barrier after step 0 timed out waiting for the decision from rank 0 (m0)");
}

BOOST_AUTO_TEST_CASE(an_abort_ends_the_ranges_barrier_on_a_member) {
  Members m(2);
  m.runners[1]->barrier()->start_range(1);  // the range begun, then the coordinator cancels it
  m.runners[1]->abort("cancelled by the coordinator");
  const auto outcomes = m.pass({1}, {}, 10s);
  BOOST_REQUIRE(outcomes[1].has_value());
  BOOST_TEST(*outcomes[1] == "aborted: cancelled by the coordinator");
}

BOOST_AUTO_TEST_CASE(a_vote_from_a_node_outside_the_job_is_refused) {
  Members m(2);
  const bt::FlowSpec vote{.job = 7, .step = 0, .offset = (std::uint64_t{1} << 62) | (1 << 2) | 1, .length = 0};
  BOOST_TEST(ba::StepBarrier::carries_vote(vote));
  const bt::ResolvedSink refused = m.runners[0]->barrier()->receive(vote, "intruder");
  BOOST_TEST(refused.sink == nullptr);
  BOOST_TEST(refused.refusal ==
             "barrier vote of step 0 from intruder: the sender is not a barrier partner of this member");
  const bt::ResolvedSink taken = m.runners[0]->barrier()->receive(vote, "m1");
  BOOST_TEST(taken.sink != nullptr);
  const bt::ResolvedSink again = m.runners[0]->barrier()->receive(vote, "m1");
  BOOST_TEST(again.refusal == "barrier vote of step 0 from m1: rank 1 voted twice");
}

BOOST_AUTO_TEST_CASE(a_vote_from_a_member_that_is_not_a_partner_is_refused) {
  Members m(7, Listing::partners);  // rank 6's one partner is rank 1
  const bt::FlowSpec vote{.job = 7, .step = 0, .offset = (std::uint64_t{1} << 62) | (1 << 2) | 1, .length = 0};
  const bt::ResolvedSink refused = m.runners[6]->barrier()->receive(vote, "m2");
  BOOST_TEST(refused.sink == nullptr);
  BOOST_TEST(refused.refusal == "barrier vote of step 0 from m2: the sender is not a barrier partner of this member");
}

// A member that names barriers which never come is refused past a few, and a vote naming a
// range beyond any release's is refused saying so.
BOOST_AUTO_TEST_CASE(votes_for_barriers_that_never_come_are_refused_past_a_bound) {
  Members m(2);
  const auto vote = [](std::uint32_t step, std::uint64_t range) {
    return bt::FlowSpec{.job = 7, .step = step, .offset = (std::uint64_t{1} << 62) | (range << 2) | 1, .length = 0};
  };
  ba::StepBarrier& barrier = *m.runners[0]->barrier();
  for (std::uint32_t step = 0; step < ba::StepBarrier::max_pending_barriers; ++step)
    BOOST_TEST(barrier.receive(vote(step, 1), "m1").sink != nullptr);
  const bt::ResolvedSink refused = barrier.receive(vote(1000, 1), "m1");
  BOOST_TEST(refused.sink == nullptr);
  BOOST_TEST(refused.refusal == "barrier vote of step 1000 from m1: 16 barriers already wait for this member");
  const bt::ResolvedSink far = barrier.receive(vote(0, std::uint64_t{1} << 32), "m1");
  BOOST_TEST(far.refusal == "barrier vote of step 0 from m1: range 4294967296 is past the ranges a release names");
}

BOOST_AUTO_TEST_SUITE_END()
