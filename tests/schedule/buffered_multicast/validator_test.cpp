// The validator on hand-made schedules whose outcome follows from docs/formats.md's rules.
#include "coordinator/schedule/buffered_multicast/validator.h"

#include <boost/test/unit_test.hpp>

namespace bm = baton::schedule::buffered_multicast;

namespace {

// Processors 0, 1 and 2 each hold one message for processor 3; processor 0 holds a fourth
// one for processors 1 and 2.
bm::Problem three_into_one(std::size_t buffers) {
  return bm::Problem{.processors = 4,
                     .buffers = buffers,
                     .messages = {{.source = 0, .destinations = {3}},
                                  {.source = 1, .destinations = {3}},
                                  {.source = 2, .destinations = {3}},
                                  {.source = 0, .destinations = {1, 2}}}};
}

bm::Send send(std::size_t message, std::uint64_t round, std::vector<bm::ProcessorId> to) {
  return bm::Send{.message = message, .round = round, .destinations = std::move(to)};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(buffered_validator)

BOOST_AUTO_TEST_CASE(a_message_is_taken_in_the_round_it_arrives) {
  const bm::Problem p{.processors = 2, .buffers = 1, .messages = {{.source = 0, .destinations = {1}}}};
  const bm::Validation v = bm::validate(p, {.sends = {send(0, 5, {1})}});
  BOOST_TEST(v.ok(), v.summary());
  BOOST_TEST(v.rounds == 5u);
  BOOST_TEST(v.busy_rounds == 1u);
  BOOST_TEST(v.max_held == 1u);
  BOOST_TEST(v.summary() == "ok: 5 rounds");
}

BOOST_AUTO_TEST_CASE(one_buffer_overflows_with_two_arrivals_in_a_round) {
  const bm::Schedule s{.sends = {send(0, 1, {3}), send(1, 1, {3}), send(2, 2, {3}), send(3, 2, {1, 2})}};
  const bm::Validation v = bm::validate(three_into_one(1), s);
  BOOST_TEST(v.error_count == 0u);
  BOOST_TEST(!v.ok());
  // Round 1: two arrive (2 > 1); take one. Round 2: one more arrives, 2 held again.
  BOOST_TEST(v.overflow_count == 2u);
  BOOST_REQUIRE(v.first_overflow.has_value());
  BOOST_TEST(v.first_overflow->processor == 3u);
  BOOST_TEST(v.first_overflow->round == 1u);
  BOOST_TEST(v.first_overflow->held == 2u);
  BOOST_TEST(v.rounds == 3u);  // the excess is kept: takes in rounds 1, 2, 3
  BOOST_TEST(v.summary() == "processor 3 holds 2 messages in round 1, more than its buffers");
}

BOOST_AUTO_TEST_CASE(buffers_hold_arrivals_and_drain_one_per_round) {
  // Two buffers: round 1 two arrive (held 2, take → 1); round 2 one arrives (held 2, take →
  // 1); round 3 takes the last one.
  const bm::Schedule s{.sends = {send(0, 1, {3}), send(1, 1, {3}), send(2, 2, {3}), send(3, 2, {1, 2})}};
  const bm::Validation v = bm::validate(three_into_one(2), s);
  BOOST_TEST(v.ok(), v.summary());
  BOOST_TEST(v.rounds == 3u);
  BOOST_TEST(v.max_held == 2u);
  BOOST_TEST(v.busy_rounds == 3u);
}

BOOST_AUTO_TEST_CASE(three_arrivals_overflow_two_buffers_but_not_three) {
  const bm::Schedule s{.sends = {send(0, 1, {3}), send(1, 1, {3}), send(2, 1, {3}), send(3, 2, {1, 2})}};
  BOOST_TEST(bm::validate(three_into_one(2), s).overflow_count == 1u);
  const bm::Validation v = bm::validate(three_into_one(3), s);
  BOOST_TEST(v.ok(), v.summary());
  BOOST_TEST(v.rounds == 3u);
  BOOST_TEST(v.max_held == 3u);
}

BOOST_AUTO_TEST_CASE(leftovers_count_against_the_next_arrivals) {
  // Two buffers: round 1 two arrive (take → 1 left); round 2 two more would make 3.
  const bm::Problem p{.processors = 5,
                      .buffers = 2,
                      .messages = {{.source = 0, .destinations = {4}},
                                   {.source = 1, .destinations = {4}},
                                   {.source = 2, .destinations = {4}},
                                   {.source = 3, .destinations = {4}}}};
  const bm::Validation v =
      bm::validate(p, {.sends = {send(0, 1, {4}), send(1, 1, {4}), send(2, 2, {4}), send(3, 2, {4})}});
  BOOST_TEST(v.overflow_count == 1u);
  BOOST_TEST(v.first_overflow->round == 2u);
  BOOST_TEST(v.first_overflow->held == 3u);
  // One round later the queue has room again.
  const bm::Validation later =
      bm::validate(p, {.sends = {send(0, 1, {4}), send(1, 1, {4}), send(2, 3, {4}), send(3, 3, {4})}});
  BOOST_TEST(later.ok(), later.summary());
  BOOST_TEST(later.rounds == 4u);
}

BOOST_AUTO_TEST_CASE(idle_rounds_are_not_busy) {
  const bm::Schedule s{.sends = {send(0, 1, {3}), send(1, 6, {3}), send(2, 7, {3}), send(3, 2, {1, 2})}};
  const bm::Validation v = bm::validate(three_into_one(1), s);
  BOOST_TEST(v.ok(), v.summary());
  BOOST_TEST(v.rounds == 7u);
  BOOST_TEST(v.busy_rounds == 4u);  // rounds 1, 2, 6, 7
}

BOOST_AUTO_TEST_CASE(a_message_may_be_split_over_rounds) {
  const bm::Schedule s{.sends = {send(0, 1, {3}), send(1, 2, {3}), send(2, 3, {3}), send(3, 2, {2}), send(3, 4, {1})}};
  const bm::Validation v = bm::validate(three_into_one(1), s);
  BOOST_TEST(v.ok(), v.summary());
  BOOST_TEST(v.rounds == 4u);
}

BOOST_AUTO_TEST_CASE(a_processor_sends_one_message_per_round) {
  // Processor 0 sends messages 0 and 3 in round 1.
  const bm::Schedule s{.sends = {send(0, 1, {3}), send(1, 2, {3}), send(2, 3, {3}), send(3, 1, {1, 2})}};
  const bm::Validation v = bm::validate(three_into_one(3), s);
  BOOST_TEST(v.error_count == 1u);
  BOOST_TEST(v.summary() == "processor 0 sends twice in round 1");
}

BOOST_AUTO_TEST_CASE(every_destination_exactly_once) {
  const bm::Problem p = three_into_one(3);
  const std::vector<bm::Send> rest{send(1, 1, {3}), send(2, 1, {3})};
  auto with = [&](std::vector<bm::Send> extra) {
    bm::Schedule s{.sends = rest};
    s.sends.insert(s.sends.end(), extra.begin(), extra.end());
    return bm::validate(p, s);
  };
  BOOST_TEST(with({send(0, 2, {3}), send(3, 3, {1, 2})}).ok());
  BOOST_TEST(with({send(0, 2, {3}), send(3, 3, {1})}).summary() == "message 3 never reaches processor 2");
  BOOST_TEST(with({send(0, 2, {3}), send(3, 3, {1, 2}), send(3, 4, {2})}).summary() ==
             "sends[4]: message 3 reaches processor 2 twice");
  BOOST_TEST(with({send(0, 2, {3}), send(3, 3, {1, 2, 3})}).summary() ==
             "sends[3]: processor 3 is not a destination of message 3");
  BOOST_TEST(with({send(0, 0, {3}), send(3, 3, {1, 2})}).summary() == "sends[2]: round 0 < 1");
  BOOST_TEST(with({send(0, 2, {3}), send(3, 3, {1, 2}), send(7, 3, {1})}).summary() == "sends[4]: no message 7");
  BOOST_TEST(with({send(0, 2, {3}), send(3, 3, {1, 2}), send(0, 4, {})}).summary() == "sends[4]: sends to nobody");
}

BOOST_AUTO_TEST_CASE(a_malformed_problem_is_an_error) {
  bm::Problem p = three_into_one(1);
  p.messages[0].destinations = {0};
  const bm::Validation v = bm::validate(p, {});
  BOOST_TEST(!v.ok());
  BOOST_TEST(v.summary().starts_with("problem: "));
}

BOOST_AUTO_TEST_CASE(nothing_to_send_takes_zero_rounds) {
  const bm::Validation v = bm::validate(bm::Problem{.processors = 2, .buffers = 1, .messages = {}}, {});
  BOOST_TEST(v.ok());
  BOOST_TEST(v.rounds == 0u);
  BOOST_TEST(v.busy_rounds == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
