// The preemption optimization of Section 5: where a send goes (Figures 13 and 16), that
// it never moves a task already placed, that with the same choices it never delays a
// delivery, and how the preemptive algorithms compare with the plain ones.
#include "coordinator/schedule/multicast/algorithms.h"
#include "coordinator/schedule/multicast/partial_schedule.h"
#include "coordinator/schedule/multicast/preemptive_slot.h"
#include "coordinator/schedule/multicast/validator.h"
#include "tests/schedule/multicast/random_problems.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace bm = baton::schedule::multicast;
using bm::Op;
using bm::testing::CostKind;
using bm::testing::Lengths;

namespace {

bm::Task receiving(double start, double end) { return {Op::recv, 0, 0, start, end}; }
bm::Task sending(double start, double end) { return {Op::send, 0, 0, start, end}; }

const char* const kBases[] = {"ecf", "wr", "eaf", "rr", "rrs"};

bm::Algorithm preemptive(bm::Algorithm a) {
  a.placement = bm::Placement::preemptive;
  return a;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(preemption)

BOOST_AUTO_TEST_CASE(slot_fills_the_first_wait_long_enough) {
  // [send 0-1] [recv 1-4] [recv 6-9] [recv 9-12]: a send of length 2 after the send does
  // not fit before the receive starting at 1 (rule 3), fits in the wait 4..6.
  const bm::TaskList list{sending(0, 1), receiving(1, 4), receiving(6, 9), receiving(9, 12)};
  const bm::SendSlot slot = bm::preemptive_send_slot(list, 0, 2.0);
  BOOST_TEST(slot.position == 2u);
  BOOST_TEST(slot.start == 4.0);
  // Exactly filling the wait is allowed (Equation 10 is >=).
  BOOST_TEST(bm::preemptive_send_slot(list, 0, 0.0).position == 1u);
  // A send of 3 fits nowhere before the last receive: it goes to the end.
  const bm::SendSlot end = bm::preemptive_send_slot(list, 0, 3.0);
  BOOST_TEST(end.position == 4u);
  BOOST_TEST(end.start == 12.0);
}

BOOST_AUTO_TEST_CASE(slot_at_the_head_of_a_list_without_sends) {
  // A source that has not sent yet: the target is the head of the list (time 0).
  const bm::TaskList list{receiving(3, 5)};
  BOOST_TEST(bm::preemptive_send_slot(list, bm::kListHead, 3.0).position == 0u);
  BOOST_TEST(bm::preemptive_send_slot(list, bm::kListHead, 3.0).start == 0.0);
  BOOST_TEST(bm::preemptive_send_slot(list, bm::kListHead, 4.0).start == 5.0);
  BOOST_TEST(bm::preemptive_send_slot({}, bm::kListHead, 4.0).start == 0.0);
}

BOOST_AUTO_TEST_CASE(slot_starts_after_the_relays_receive) {
  // Rule 2: the target is the receive of the message (index 1), not the head.
  const bm::TaskList list{receiving(0, 2), receiving(2, 3), receiving(9, 10)};
  const bm::SendSlot slot = bm::preemptive_send_slot(list, 1, 1.0);
  BOOST_TEST(slot.position == 2u);
  BOOST_TEST(slot.start == 3.0);
}

BOOST_AUTO_TEST_CASE(commits_obey_the_three_rules_and_never_move_placed_tasks) {
  std::mt19937_64 rng(12);
  for (int round = 0; round < 60; ++round) {
    const bm::testing::RandomOptions o{.nodes = 2 + bm::testing::below(rng, 7),
                                       .costs = round % 2 ? CostKind::paper : CostKind::integer};
    const bm::Problem p = bm::testing::random_problem(rng, o);
    bm::PartialSchedule partial(p, bm::Placement::preemptive);
    std::vector<bm::TaskList> before(p.node_count());
    while (partial.remaining_deliveries() > 0) {
      // Any legal choice will do: the first pending receiver of the first open multicast,
      // from its most recent holder.
      bm::MulticastId k = 0;
      while (partial.pending_receivers(k).empty()) ++k;
      const bm::Transfer t{partial.holders(k).back(), partial.pending_receivers(k).front(), k};
      const double expected_start = partial.send_available(t.sender, k);
      partial.commit(t);
      const bm::Schedule now = bm::PartialSchedule(partial).take();
      // Rule 3 and Figure 14: every task placed before keeps its times; one send and one
      // receive were added.
      for (bm::NodeId i = 0; i < p.node_count(); ++i) {
        std::size_t matched = 0;
        for (const bm::Task& task : now.tasks[i]) {
          if (matched < before[i].size() && task.start == before[i][matched].start &&
              task.end == before[i][matched].end && task.op == before[i][matched].op) {
            ++matched;
          }
        }
        BOOST_TEST(matched == before[i].size());
      }
      // Rules 1 and 2: the new send is the sender's last send and follows its receive.
      const bm::TaskList& sends = now.tasks[t.sender];
      std::size_t position = 0;
      while (
          !(sends[position].op == Op::send && sends[position].peer == t.receiver && sends[position].multicast == k)) {
        ++position;
      }
      BOOST_TEST(sends[position].start == expected_start);
      for (std::size_t later = position + 1; later < sends.size(); ++later) {
        BOOST_TEST((sends[later].op == Op::recv));
      }
      if (t.sender != p.multicasts[k].source) {
        bool received_before = false;
        for (std::size_t q = 0; q < position; ++q) {
          received_before = received_before || (sends[q].op == Op::recv && sends[q].multicast == k);
        }
        BOOST_TEST(received_before);
      }
      before = now.tasks;
    }
    BOOST_TEST(bm::validate(p, std::move(partial).take().tasks).ok());
  }
}

BOOST_AUTO_TEST_CASE(with_the_same_choices_preemption_never_delays_a_delivery) {
  // Replay each plain algorithm's choices with the preemptive placement: sends can only
  // move earlier, so every receive ends no later (induction over the commits).
  std::mt19937_64 rng(31);
  for (int round = 0; round < 80; ++round) {
    const bm::testing::RandomOptions o{.nodes = 2 + bm::testing::below(rng, 9),
                                       .lengths = static_cast<Lengths>(round % 3)};
    const bm::Problem p = round % 4 == 0 ? bm::testing::all_to_all(rng, o) : bm::testing::random_problem(rng, o);
    for (const char* base : kBases) {
      const bm::Schedule plain = bm::plan(p, {.algorithm = *bm::parse_algorithm(base), .seed = 2});
      bm::PartialSchedule replay(p, bm::Placement::preemptive);
      for (const bm::Transfer& t : plain.selection_order) {
        const double end = replay.commit(t);
        double plain_end = 0;
        for (const bm::Task& task : plain.tasks[t.receiver]) {
          if (task.op == Op::recv && task.multicast == t.multicast) plain_end = task.end;
        }
        BOOST_TEST(end <= plain_end, base << " round " << round);
      }
      BOOST_TEST(bm::validate(p, std::move(replay).take().tasks).ok());
    }
  }
}

BOOST_AUTO_TEST_CASE(a_preemptive_algorithm_can_finish_later_than_its_plain_version) {
  // The issue expects ECFP never to finish after ECF. It can: the greedy choices differ.
  // P0: S = 1, R = 2; P1: S = 2, R = 4; P2: S = 3, R = 4; no link time. m0: P2 -> P1,
  // m1: P1 -> P0, m2: P0 -> P2. Both start with (1, 0, m1) ending at 4.
  // ECF: (2, 1, m0) ends at 3 + 4 = 7, then P0 (free at 4) sends m2: 4 + 1 + 4 = 9.
  // ECFP: P0 may send m2 before its receive (gap 0..2), ending at 1 + 4 = 5 < 7, so ECFP
  // takes it; now P2 receives over [1, 5], the gap 0..1 is too short for its own send
  // (S = 3), so m0 leaves P2 at 5 + 3 = 8 and P1 receives it over [8, 12].
  bm::Problem p;
  p.nodes = {{1, 0, 2, 0}, {2, 0, 4, 0}, {3, 0, 4, 0}};
  p.link_per_byte = bm::uniform_links(3, 0);
  p.multicasts = {{2, 100, {1}}, {1, 100, {0}}, {0, 100, {2}}};
  const bm::Schedule ecf = bm::plan(p, {.algorithm = *bm::parse_algorithm("ecf")});
  const bm::Schedule ecfp = bm::plan(p, {.algorithm = *bm::parse_algorithm("ecfp")});
  BOOST_TEST(bm::validate(p, ecf.tasks).ok());
  BOOST_TEST(bm::validate(p, ecfp.tasks).ok());
  BOOST_TEST(bm::completion_time(ecf.tasks) == 9.0);
  BOOST_TEST(bm::completion_time(ecfp.tasks) == 12.0);
  BOOST_TEST((ecfp.selection_order[1] == bm::Transfer{0, 2, 2}));
}

BOOST_AUTO_TEST_CASE(on_average_preemption_helps_every_algorithm_on_the_papers_model) {
  // Measured over a fixed sweep (Section 7's costs): the mean completion time of each
  // preemptive algorithm is below its plain version's; instances where it is later exist
  // (see the case above) and are counted in docs/multicast.md.
  std::mt19937_64 rng(2002);
  double plain[5] = {};
  double optimized[5] = {};
  for (int round = 0; round < 100; ++round) {
    const bm::testing::RandomOptions o{.nodes = 4 + bm::testing::below(rng, 9),
                                       .lengths = static_cast<Lengths>(round % 3)};
    const bm::Problem p = round % 2 ? bm::testing::all_to_all(rng, o) : bm::testing::random_problem(rng, o);
    for (int b = 0; b < 5; ++b) {
      const bm::Algorithm a = *bm::parse_algorithm(kBases[b]);
      plain[b] += bm::completion_time(bm::plan(p, {.algorithm = a, .seed = 9}).tasks);
      optimized[b] += bm::completion_time(bm::plan(p, {.algorithm = preemptive(a), .seed = 9}).tasks);
    }
  }
  for (int b = 0; b < 5; ++b) BOOST_TEST(optimized[b] < plain[b], kBases[b]);
}

BOOST_AUTO_TEST_SUITE_END()
