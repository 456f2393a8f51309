// When a self-paced range's steps ran, on the coordinator's clock
// (coordinator/daemon/range_step_times.h): the first step from the release to the first
// member's word, so that a member that heard the release before the first member did still
// fits in it; the later ones on the first member's own times, following the first.
#include "coordinator/daemon/range_step_times.h"

#include <boost/test/unit_test.hpp>

#include <limits>

namespace bc = baton::coordinator;
using namespace std::chrono_literals;

namespace {

const bc::Clock::time_point kReleased = bc::Clock::time_point{} + 100s;

double at(bc::Clock::time_point t) { return bc::seconds_between(kReleased, t); }

}  // namespace

BOOST_AUTO_TEST_SUITE(range_step_times)

// The first member heard the release 0.3 s after it went and took 1.0 s in the first step;
// its word came 0.1 s after its decision. Another member, which heard the release at
// once, may have spent up to 1.3 s in that step: the step is the 1.4 s from the release to
// the word.
BOOST_AUTO_TEST_CASE(the_first_step_runs_from_the_release_to_the_first_members_word) {
  const bc::PassedWord word{.seconds = 1.0, .started = 0, .heard = kReleased + 1400ms};
  const bc::RangeStepTimes t = bc::range_step_times(true, word, word, kReleased, kReleased + 2s);
  BOOST_TEST(at(t.began) == 0.0);
  BOOST_TEST(t.measured == 1.4, boost::test_tools::tolerance(1e-9));
}

// Its second step began at its first decision (1.0 s into the range on its clock) and took
// 0.5 s: on this clock it begins where the first step ended, at the first word, and lasts
// the member's 0.5 s; the third follows the second's end.
BOOST_AUTO_TEST_CASE(later_steps_follow_the_first_on_the_first_members_own_times) {
  const bc::PassedWord first{.seconds = 1.0, .started = 0, .heard = kReleased + 1400ms};
  const bc::PassedWord second{.seconds = 0.5, .started = 1.0, .heard = kReleased + 1950ms};
  const bc::PassedWord third{.seconds = 0.25, .started = 1.5, .heard = kReleased + 2300ms};
  const bc::RangeStepTimes t2 = bc::range_step_times(false, second, first, kReleased, kReleased + 3s);
  const bc::RangeStepTimes t3 = bc::range_step_times(false, third, first, kReleased, kReleased + 3s);
  BOOST_TEST(at(t2.began) == 1.4, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(t2.measured == 0.5);
  BOOST_TEST(at(t3.began) == 1.9, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(t3.measured == 0.25);
}

// A first member older than StepPassed.started says 0 for every step: a later step is
// reckoned back from now by its time.
BOOST_AUTO_TEST_CASE(a_member_that_does_not_say_when_a_step_started_is_reckoned_back_from_now) {
  const bc::PassedWord first{.seconds = 1.0, .started = 0, .heard = kReleased + 1400ms};
  const bc::PassedWord second{.seconds = 0.5, .started = 0, .heard = kReleased + 2s};
  const bc::RangeStepTimes t = bc::range_step_times(false, second, first, kReleased, kReleased + 2100ms);
  BOOST_TEST(at(t.began) == 1.6, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(t.measured == 0.5);
}

// The times come from an agent over the network: one not a number, negative or past the
// range's age (here 2.1 s) is taken at the nearest bound, not converted as it came.
BOOST_AUTO_TEST_CASE(a_members_times_out_of_bounds_are_taken_within_the_ranges_age) {
  const bc::PassedWord first{.seconds = 1.0, .started = 0, .heard = kReleased + 1400ms};
  const auto now = kReleased + 2100ms;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bc::RangeStepTimes no_number =
      bc::range_step_times(false, bc::PassedWord{.seconds = nan, .started = nan, .heard = now}, first, kReleased, now);
  BOOST_TEST(at(no_number.began) == 2.1, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(no_number.measured == 0.0);
  const bc::RangeStepTimes huge = bc::range_step_times(
      false, bc::PassedWord{.seconds = 1e300, .started = 1e300, .heard = now}, first, kReleased, now);
  BOOST_TEST(huge.measured == 2.1, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(at(huge.began) <= 1.4 + 2.1);  // the first word's time plus at most the range's age
  const bc::RangeStepTimes negative =
      bc::range_step_times(false, bc::PassedWord{.seconds = -5, .started = -5, .heard = now}, first, kReleased, now);
  BOOST_TEST(at(negative.began) == 2.1, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(negative.measured == 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
