// EP (Fig. 2), its properties from Section 3, and Lemma 1's receivers.
#include <boost/test/unit_test.hpp>

#include "coordinator/schedule/reduction/binomial_tree.h"
#include "coordinator/schedule/reduction/earliest_possible.h"
#include "coordinator/schedule/reduction/receiver_assignment.h"
#include "coordinator/schedule/reduction/sender_order_schedule.h"
#include "coordinator/schedule/reduction/validator.h"
#include "error/error.h"
#include "tests/schedule/reduction/exhaustive.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <set>

using namespace baton::schedule::reduction;

namespace {

// Fig. 1's cluster: A..G = 0..6 with times 10, 5, 5, 5, 4, 2, 2; A is the destination.
const Problem kFig1{.times = {10, 5, 5, 5, 4, 2, 2}, .destination = 0};
constexpr std::size_t A = 0, B = 1, C = 2, D = 3, E = 4, F = 5, G = 6;

std::vector<std::size_t> random_order(const Problem& problem, std::mt19937_64& rng) {
  std::vector<std::size_t> order = senders(problem);
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}

}  // namespace

BOOST_AUTO_TEST_CASE(fig3_starts_c_when_g_and_f_have_ended) {
  // Fig. 3: G, F and D start at 0 (the first floor(7/2) = 3 senders). At time 2 G and F are
  // done (C = 2) and D still sends (2A' = 2): 7 - 2 - 2 = 3 processors are free, so C starts.
  const std::vector<std::size_t> order{G, F, D, C, B, E};
  const std::vector<EpSlot> slots = earliest_possible(kFig1.times, order);
  BOOST_TEST(slots[0].start == 0.0);
  BOOST_TEST(slots[1].start == 0.0);
  BOOST_TEST(slots[2].start == 0.0);
  BOOST_TEST(slots[3].start == 2.0);
  // One processor is left free then: B waits for D to end (5); E then needs both C (7)
  // and B (10) to end, and sends for 4.
  BOOST_TEST(slots[4].start == 5.0);
  BOOST_TEST(slots[5].start == 10.0);
  BOOST_TEST(slots[5].end == 14.0);
  BOOST_TEST(!validate_reduction(kFig1, schedule_sender_order(kFig1, order)).broken);
}

BOOST_AUTO_TEST_CASE(ep_properties_of_section_3_hold_on_random_orders) {
  // (1) n - 1 <= 2A(s, t) + C(s, t) <= n at every time t, (2) every sender starting after 0
  // starts exactly when another ends, and start times follow the order.
  std::mt19937_64 rng(31);
  const std::vector<double> speeds{1, 1.5, 2, 3.25, 7};
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 2 + trial % 15;
    const Problem problem{.times = baton::schedule::reduction::test::random_times(rng, n, speeds),
                          .destination = trial % n};
    const std::vector<EpSlot> slots = earliest_possible(problem.times, random_order(problem, rng));
    std::set<double> events{0};
    for (const EpSlot& s : slots) events.insert({s.start, s.end});
    for (double t : events) {
      std::size_t active = 0, complete = 0;
      for (const EpSlot& s : slots) {
        active += s.start <= t && t < s.end ? 1 : 0;
        complete += t >= s.end ? 1 : 0;
      }
      BOOST_TEST(2 * active + complete + 1 >= n);
      BOOST_TEST(2 * active + complete <= n);
    }
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (i > 0) BOOST_TEST(slots[i - 1].start <= slots[i].start);
      if (slots[i].start > 0) {
        BOOST_TEST(std::any_of(slots.begin(), slots.end(), [&](const EpSlot& q) { return q.end == slots[i].start; }));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(lemma1_receivers_make_every_ep_order_a_valid_reduction) {
  std::mt19937_64 rng(7);
  const std::vector<double> speeds{1, 2, 3, 5, 8, 13};
  for (int trial = 0; trial < 500; ++trial) {
    const std::size_t n = 1 + trial % 40;
    const Problem problem{.times = baton::schedule::reduction::test::random_times(rng, n, speeds),
                          .destination = (trial * 7) % n};
    const std::vector<std::size_t> order = random_order(problem, rng);
    const Schedule schedule = schedule_sender_order(problem, order);
    const Verdict verdict = validate_reduction(problem, schedule);
    BOOST_TEST_REQUIRE(!verdict.broken, verdict.broken.value_or("").reason);
    if (n > 1) {
      BOOST_TEST(verdict.makespan == earliest_possible(problem.times, order).back().end);
    }
  }
}

BOOST_AUTO_TEST_CASE(converting_a_schedule_to_ep_never_makes_it_longer) {
  // Section 3: moving every window to its earliest possible time does not increase the
  // total. Take binomial-tree schedules and run their senders, by start time, through EP.
  std::mt19937_64 rng(11);
  const std::vector<double> speeds{1, 2, 2.5, 6};
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 2 + trial % 30;
    const Problem problem{.times = baton::schedule::reduction::test::random_times(rng, n, speeds), .destination = 0};
    const Schedule tree = binomial_tree(problem);
    std::vector<std::size_t> order;
    for (const Transfer& t : tree.transfers) order.push_back(t.src);  // sorted by start
    BOOST_TEST(makespan(schedule_sender_order(problem, order)) <= makespan(tree));
  }
}

BOOST_AUTO_TEST_CASE(best_ep_order_is_the_optimum) {
  // Every schedule has an EP form (Section 3), so the best of all (n - 1)! orders equals
  // the optimum of the independent tree recursion.
  std::mt19937_64 rng(5);
  const std::vector<double> speeds{1, 1.4, 2.3, 3};
  for (int trial = 0; trial < 30; ++trial) {
    const std::size_t n = 2 + trial % 7;
    const Problem problem{.times = baton::schedule::reduction::test::random_times(rng, n, speeds), .destination = 0};
    std::vector<std::size_t> order = senders(problem);
    double best = 1e300;
    do {
      best = std::min(best, earliest_possible(problem.times, order).back().end);
    } while (std::next_permutation(order.begin(), order.end()));
    std::vector<double> sender_times;
    for (std::size_t p : senders(problem)) sender_times.push_back(problem.times[p]);
    BOOST_TEST(best == baton::schedule::reduction::test::optimal_reduction(sender_times),
               boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(predecessors_form_a_tree_rooted_at_the_last_sender) {
  const std::vector<std::size_t> order{B, C, D, E, F, G};
  const std::vector<EpSlot> slots = earliest_possible(kFig1.times, order);
  std::vector<int> times_used(slots.size(), 0);
  for (const EpSlot& s : slots) {
    for (const auto& p : s.predecessors) {
      if (p) ++times_used[*p];
    }
  }
  for (std::size_t i = 0; i + 1 < slots.size(); ++i) BOOST_TEST(times_used[i] == 1);
  BOOST_TEST(times_used.back() == 0);
  const Schedule schedule = assign_receivers(slots, kFig1.destination);
  BOOST_TEST(schedule.transfers.back().dst == kFig1.destination);
}

BOOST_AUTO_TEST_CASE(bad_orders_are_refused) {
  BOOST_CHECK_THROW(schedule_sender_order(kFig1, std::vector<std::size_t>{B, C}), baton::error::InvalidInput);
  BOOST_CHECK_THROW(schedule_sender_order(kFig1, std::vector<std::size_t>{A, B, C, D, E, F}),
                    baton::error::InvalidInput);
  BOOST_CHECK_THROW(schedule_sender_order(kFig1, std::vector<std::size_t>{B, B, C, D, E, F}),
                    baton::error::InvalidInput);
}
