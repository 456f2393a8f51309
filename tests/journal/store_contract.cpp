#include "tests/journal/store_contract.h"

#include "error/error.h"

#include <boost/test/unit_test.hpp>

namespace baton::journal::test {

void check_jobs_round_trip(const OpenStore& open) {
  std::uint64_t first = 0, second = 0, third = 0;
  {
    const std::unique_ptr<Store> j = open();
    BOOST_TEST(j->jobs().empty());
    BOOST_TEST(j->unfinished().empty());
    first = j->add_job(R"({"senders":["a0"]})");
    second = j->add_job(R"({"senders":["a1"], "note": "é \u0000"})");
    third = j->add_job("{}");
    BOOST_TEST(second > first);
    BOOST_TEST(third > second);
    j->set_state(first, "running");
    j->record_step(first, {0, 1, 0.5, 0.75, 4096, "2026-11-22T07:50:00Z"});
    j->record_step(first, {1, 1, 0.25, 0.0, 0, ""});
    j->record_step(first, {1, 2, 0.1 + 0.2, 0.5, 2048, "2026-11-22T07:51:00Z"});  // replaced: retried
    j->record_step(first, {10, 1, 1, 1, 1, "2026-11-22T07:52:00Z"});              // sorts after 1, not 0
    j->set_state(second, "failed", "agent b0 died");
    j->set_report(second, R"({"state": "failed"})");
    j->set_state(third, "planning");
    BOOST_CHECK_THROW(j->set_state(third + 100, "done"), baton::error::InvalidInput);
    BOOST_CHECK_THROW(j->set_state(first, "sleeping"), baton::error::InvalidInput);
    BOOST_CHECK_THROW(j->set_report(third + 100, "{}"), baton::error::InvalidInput);
    BOOST_CHECK_THROW(j->record_step(third + 100, {0, 1, 0, 0, 0, ""}), baton::error::InvalidInput);
    BOOST_TEST(!j->job(third + 100).has_value());
    BOOST_TEST(j->steps(third + 100).empty());
  }
  // A new store on the same records (a restart, or a standby taking over) sees everything.
  const std::unique_ptr<Store> j = open();
  const auto jobs = j->jobs();
  BOOST_REQUIRE_EQUAL(jobs.size(), 3u);
  BOOST_TEST(jobs[0].id == first);
  BOOST_TEST(jobs[0].spec == R"({"senders":["a0"]})");
  BOOST_TEST(jobs[0].state == "running");
  BOOST_TEST(jobs[0].error.empty());
  BOOST_TEST(jobs[0].report.empty());
  BOOST_TEST(jobs[0].submitted.size() == 20u);  // 2026-11-22T07:50:00Z
  BOOST_TEST(jobs[1].spec == R"({"senders":["a1"], "note": "é \u0000"})");
  BOOST_TEST(jobs[1].error == "agent b0 died");
  BOOST_TEST(jobs[1].report == R"({"state": "failed"})");
  const auto job = j->job(second);
  BOOST_REQUIRE(job.has_value());
  BOOST_TEST(job->state == "failed");
  BOOST_TEST(job->report == R"({"state": "failed"})");
  BOOST_TEST(job->submitted == jobs[1].submitted);

  const auto steps = j->steps(first);
  BOOST_REQUIRE_EQUAL(steps.size(), 3u);
  BOOST_TEST(steps[0].step == 0u);
  BOOST_TEST(steps[0].attempts == 1u);
  BOOST_TEST(steps[0].predicted == 0.5);
  BOOST_TEST(steps[0].measured == 0.75);
  BOOST_TEST(steps[0].bytes == 4096u);
  BOOST_TEST(steps[0].finished == "2026-11-22T07:50:00Z");
  BOOST_TEST(steps[1].step == 1u);
  BOOST_TEST(steps[1].attempts == 2u);
  BOOST_TEST(steps[1].predicted == 0.1 + 0.2);  // every bit of a double kept
  BOOST_TEST(steps[1].bytes == 2048u);
  BOOST_TEST(steps[2].step == 10u);
  BOOST_TEST(j->unfinished() == (std::vector<std::uint64_t>{first, third}), boost::test_tools::per_element());

  j->set_state(first, "done");
  j->set_state(third, "cancelled");
  BOOST_TEST(j->unfinished().empty());
  BOOST_TEST(j->add_job("{}") > third);  // ids never reused
}

void check_calibrations_and_replans(const OpenStore& open) {
  const std::unique_ptr<Store> j = open();
  const std::uint64_t a = j->add_calibration(R"({"senders": ["s1"], "receivers": ["r1"]})");
  const std::uint64_t b = j->add_calibration(R"({"senders": ["s2"], "receivers": ["r2"]})");
  BOOST_TEST(b > a);
  j->set_calibration(a, CalibrationState::running);
  j->set_calibration(a, CalibrationState::done, "", R"({"d": 1, "D": 3, "beta": 0.01, "k": 3})");
  j->set_calibration(b, CalibrationState::failed, "agent r2 refused the plan");
  BOOST_CHECK_THROW(j->set_calibration(b + 10, CalibrationState::done), baton::error::InvalidInput);

  const std::uint64_t job = j->add_job("{}");
  j->add_replan(job, {.at_step = 9, .platform = R"({"backbone_rate": 2})", .record = R"({"why": "b"})"});
  j->add_replan(job, {.at_step = 3, .platform = R"({"backbone_rate": 1})", .record = R"({"why": "a"})"});
  BOOST_CHECK_THROW(j->add_replan(job, {.at_step = 3, .platform = "{}", .record = "{}"}), baton::error::InvalidInput);
  BOOST_CHECK_THROW(j->add_replan(job + 1, {.at_step = 0, .platform = "{}", .record = "{}"}),
                    baton::error::InvalidInput);

  const std::unique_ptr<Store> again = open();
  const auto all = again->calibrations();
  BOOST_REQUIRE_EQUAL(all.size(), 2u);
  BOOST_TEST(all[0].id == a);
  BOOST_TEST(all[0].request == R"({"senders": ["s1"], "receivers": ["r1"]})");
  BOOST_TEST((all[0].state == CalibrationState::done));
  BOOST_TEST(all[0].result == R"({"d": 1, "D": 3, "beta": 0.01, "k": 3})");
  BOOST_TEST(all[0].requested.size() == 20u);
  BOOST_TEST(all[0].finished.size() == 20u);
  BOOST_TEST((all[1].state == CalibrationState::failed));
  BOOST_TEST(all[1].error == "agent r2 refused the plan");
  const auto replans = again->replans(job);
  BOOST_REQUIRE_EQUAL(replans.size(), 2u);
  BOOST_TEST(replans[0].at_step == 3u);
  BOOST_TEST(replans[0].record == R"({"why": "a"})");
  BOOST_TEST(replans[1].platform == R"({"backbone_rate": 2})");
  BOOST_TEST(again->replans(job + 1).empty());
}

// Issue 27: a resumed job is staged on the identities its agents answered at submit, not
// on its names; they are kept with the job, in the transaction that adds it.
void check_identities(const OpenStore& open) {
  const ObjectIdentities identities{{{"n0", "array.bin"}, "files:m:2049:77"},
                                    {{"n0", "hard.bin"}, "files:m:2049:77"},
                                    {{"n1", "out/x.bin"}, "files:m:2049:12/x.bin"},
                                    {{"n1", "é \"q\"/y.bin"}, "files:m:2049:12/é \"q\"/y.bin"},
                                    {{"n2", "silent.bin"}, ""}};
  std::uint64_t with = 0, without = 0;
  {
    const std::unique_ptr<Store> j = open();
    with = j->add_job("{}", identities);
    without = j->add_job("{}");
    BOOST_TEST(j->identities(with).size() == 4u);
  }
  // A new store on the same records (a restart, or a standby taking over).
  const std::unique_ptr<Store> j = open();
  ObjectIdentities answered = identities;
  answered.erase({"n2", "silent.bin"});  // not answered: nothing to keep
  BOOST_TEST((j->identities(with) == answered));
  BOOST_TEST(j->identities(without).empty());
  BOOST_TEST(j->identities(without + 1).empty());
  BOOST_TEST(j->job(with)->state == "queued");
}

}  // namespace baton::journal::test
