// Waiting for a job's end over the API (coordinator/daemon/job_end_wait.h): the query's
// seconds, and the signal that wakes a waiter without losing an end that came before it
// waited.
#include "coordinator/daemon/job_end_wait.h"
#include "coordinator/daemon/request_error.h"

#include <boost/test/unit_test.hpp>

#include <future>
#include <thread>

namespace bc = baton::coordinator;
using std::chrono::milliseconds;

namespace {

std::string wait_refusal(const std::string& text) {
  try {
    bc::parse_job_wait(text);
  } catch (const bc::RequestError& e) {
    BOOST_TEST((e.failure() == bc::RequestFailure::bad_request));
    return e.what();
  }
  return "accepted";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(job_end_wait)

BOOST_AUTO_TEST_CASE(the_seconds_are_a_number_in_zero_to_five) {
  BOOST_TEST(bc::parse_job_wait("5").count() == 5000);
  BOOST_TEST(bc::parse_job_wait("0.25").count() == 250);
  BOOST_TEST(bc::parse_job_wait("0.0001").count() == 1);  // waits, does not answer at once
  for (const std::string bad : {"", "0", "-0.5", "5.001", "nan", "inf", "1e400", " 1", "1 ", "1s", "0x1"}) {
    BOOST_TEST(wait_refusal(bad) == "wait: must be seconds in (0, 5], not \"" + bad + "\"");
  }
  // A long value is cut in the message.
  BOOST_TEST(wait_refusal(std::string(1000, '9')) ==
             "wait: must be seconds in (0, 5], not \"" + std::string(32, '9') + "\"");
}

BOOST_AUTO_TEST_CASE(an_end_before_the_wait_is_not_missed) {
  bc::JobEndSignal signal;
  const std::uint64_t seen = signal.generation();
  signal.ended();  // between the look at the job and the wait
  BOOST_TEST(signal.wait_after(seen, bc::JobEndSignal::Clock::now() + std::chrono::hours(1)));
}

BOOST_AUTO_TEST_CASE(a_waiter_wakes_at_an_end_or_a_stop_and_gives_up_at_its_deadline) {
  bc::JobEndSignal signal;
  std::uint64_t seen = signal.generation();
  auto woken = std::async(std::launch::async, [&] {
    return signal.wait_after(seen, bc::JobEndSignal::Clock::now() + std::chrono::hours(1));
  });
  signal.ended();
  BOOST_TEST(woken.get());
  // Nothing ends: false at the deadline (already past here, so no time is spent).
  seen = signal.generation();
  BOOST_TEST(!signal.wait_after(seen, bc::JobEndSignal::Clock::now() - milliseconds(1)));
  auto stopped = std::async(std::launch::async, [&] {
    return signal.wait_after(seen, bc::JobEndSignal::Clock::now() + std::chrono::hours(1));
  });
  signal.stop();
  BOOST_TEST(!stopped.get());
}

BOOST_AUTO_TEST_SUITE_END()
