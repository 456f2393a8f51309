// The journal: round trips, restarts, resumable jobs, clear errors on a bad file, and
// records that survive the writing process dying without closing.
#include "coordinator/journal/journal.h"
#include "error/error.h"
#include "tests/support/temp_dir.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <boost/test/unit_test.hpp>

#include <sys/wait.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>

namespace bj = baton::journal;
namespace fs = std::filesystem;
using baton::test::TempDir;

namespace {

// Runs `f`, which must throw baton::error::SystemError whose message has every one of `parts`.
template <class F>
void check_error(F f, std::initializer_list<std::string> parts) {
  try {
    f();
    BOOST_FAIL("no exception");
  } catch (const baton::error::SystemError& e) {
    const std::string what = e.what();
    for (const std::string& p : parts) BOOST_TEST(what.find(p) != std::string::npos, what << " lacks " << p);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(journal)

BOOST_AUTO_TEST_CASE(round_trip_and_restart) {
  TempDir dir("baton-journal");
  const fs::path file = dir.path / "journal.sqlite";
  std::uint64_t first = 0, second = 0;
  {
    bj::Journal j(file);
    BOOST_TEST(j.jobs().empty());
    first = j.add_job(R"({"senders":["a0"]})");
    second = j.add_job(R"({"senders":["a1"]})");
    BOOST_TEST(second > first);
    j.set_state(first, "running");
    j.record_step(first, {0, 1, 0.5, 0.75, 4096, "2026-11-22T07:50:00Z"});
    j.record_step(first, {1, 1, 0.25, 0.0, 0, ""});
    j.record_step(first, {1, 2, 0.25, 0.5, 2048, "2026-11-22T07:51:00Z"});  // upsert: retried
    j.set_state(second, "failed", "agent b0 died");

    const auto jobs = j.jobs();
    BOOST_REQUIRE_EQUAL(jobs.size(), 2u);
    BOOST_TEST(jobs[0].id == first);
    BOOST_TEST(jobs[0].spec == R"({"senders":["a0"]})");
    BOOST_TEST(jobs[0].state == "running");
    BOOST_TEST(jobs[0].error.empty());
    BOOST_TEST(jobs[0].submitted.size() == 20u);  // 2026-11-22T07:50:00Z
    BOOST_TEST(jobs[1].error == "agent b0 died");
    BOOST_TEST(!j.job(second + 100).has_value());
    BOOST_CHECK_THROW(j.set_state(second + 100, "done"), baton::error::InvalidInput);
    BOOST_CHECK_THROW(j.set_state(first, "sleeping"), baton::error::InvalidInput);
    BOOST_CHECK_THROW(j.record_step(second + 100, {0, 1, 0, 0, 0, ""}), baton::error::InvalidInput);
  }
  // A restart: a new Journal on the same file sees everything.
  bj::Journal j(file);
  const auto job = j.job(first);
  BOOST_REQUIRE(job.has_value());
  BOOST_TEST(job->state == "running");
  const auto steps = j.steps(first);
  BOOST_REQUIRE_EQUAL(steps.size(), 2u);
  BOOST_TEST(steps[0].step == 0u);
  BOOST_TEST(steps[0].attempts == 1u);
  BOOST_TEST(steps[0].predicted == 0.5);
  BOOST_TEST(steps[0].measured == 0.75);
  BOOST_TEST(steps[0].bytes == 4096u);
  BOOST_TEST(steps[0].finished == "2026-11-22T07:50:00Z");
  BOOST_TEST(steps[1].attempts == 2u);
  BOOST_TEST(steps[1].bytes == 2048u);
  BOOST_TEST(steps[1].finished == "2026-11-22T07:51:00Z");
  BOOST_TEST(j.steps(second).empty());
  BOOST_TEST(j.job(second)->error == "agent b0 died");
  const std::uint64_t third = j.add_job("{}");
  BOOST_TEST(third > second);
}

BOOST_AUTO_TEST_CASE(unfinished_follows_states) {
  TempDir dir("baton-journal");
  bj::Journal j(dir.path / "journal.sqlite");
  const auto a = j.add_job("{}"), b = j.add_job("{}"), c = j.add_job("{}"), d = j.add_job("{}");
  BOOST_TEST((j.unfinished() == std::vector<std::uint64_t>{a, b, c, d}));
  j.set_state(a, "planning");
  j.set_state(b, "running");
  j.set_state(c, "done");
  BOOST_TEST((j.unfinished() == std::vector<std::uint64_t>{a, b, d}));
  j.set_state(a, "failed", "no route");
  j.set_state(d, "cancelled");
  BOOST_TEST((j.unfinished() == std::vector<std::uint64_t>{b}));
  j.set_state(b, "done");
  BOOST_TEST(j.unfinished().empty());
}

BOOST_AUTO_TEST_CASE(a_version_1_journal_is_migrated_and_keeps_its_jobs) {
  TempDir dir("baton-journal");
  const fs::path path = dir.path / "v1.sqlite";
  {
    // The schema of version 1, as docs/journal.md gave it, with one finished job.
    SQLite::Database db(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec(
        "CREATE TABLE jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, submitted TEXT NOT NULL, spec TEXT NOT NULL,"
        " state TEXT NOT NULL, error TEXT NOT NULL DEFAULT '')");
    db.exec(
        "CREATE TABLE steps (job INTEGER NOT NULL REFERENCES jobs(id), step INTEGER NOT NULL, attempts INTEGER"
        " NOT NULL, predicted REAL NOT NULL, measured REAL NOT NULL, bytes INTEGER NOT NULL, finished TEXT,"
        " PRIMARY KEY (job, step))");
    db.exec("INSERT INTO jobs (submitted, spec, state) VALUES ('2026-11-20T10:00:00Z', '{}', 'done')");
    db.exec("PRAGMA user_version=1");
  }
  bj::Journal j(path);
  const auto job = j.job(1);
  BOOST_REQUIRE(job.has_value());
  BOOST_TEST(job->state == "done");
  BOOST_TEST(job->report.empty());
  j.set_report(1, R"({"id": "1"})");
  BOOST_TEST(j.job(1)->report == R"({"id": "1"})");
  BOOST_TEST(j.add_job("{}") == 2u);  // ids go on from where version 1 left them
  BOOST_CHECK_THROW(j.set_report(7, "{}"), baton::error::InvalidInput);
  BOOST_TEST(j.add_calibration("{}") == 1u);  // and on to version 3
}

BOOST_AUTO_TEST_CASE(a_version_2_journal_is_migrated_to_calibrations_and_replans) {
  TempDir dir("baton-journal");
  const fs::path path = dir.path / "v2.sqlite";
  {
    bj::Journal j(path);  // today's schema, then taken back to version 2 as docs/journal.md gave it
    j.add_job(R"({"senders": ["a"]})");
    SQLite::Database db(path.string(), SQLite::OPEN_READWRITE);
    db.exec("DROP TABLE calibrations");
    db.exec("DROP TABLE replans");
    db.exec("DROP TABLE identities");
    db.exec("PRAGMA user_version=2");
  }
  bj::Journal j(path);
  BOOST_TEST(j.job(1)->spec == R"({"senders": ["a"]})");
  BOOST_TEST(j.calibrations().empty());
  BOOST_TEST(j.add_calibration(R"({"senders": ["a"], "receivers": ["b"]})") == 1u);
  j.add_replan(1, {.at_step = 4, .platform = "{}", .record = "{}"});
  BOOST_TEST(j.replans(1).size() == 1u);
  SQLite::Database db(path.string(), SQLite::OPEN_READONLY);
  BOOST_TEST(db.execAndGet("PRAGMA user_version").getInt() == bj::Journal::kSchemaVersion);
}

BOOST_AUTO_TEST_CASE(a_version_3_journal_is_migrated_to_identities_and_resumes_its_jobs_by_name) {
  TempDir dir("baton-journal");
  const fs::path path = dir.path / "v3.sqlite";
  {
    bj::Journal j(path);  // today's schema, then taken back to version 3 as docs/journal.md gave it
    j.add_job(R"({"senders": ["a"]})");
    SQLite::Database db(path.string(), SQLite::OPEN_READWRITE);
    db.exec("DROP TABLE identities");
    db.exec("PRAGMA user_version=3");
  }
  bj::Journal j(path);
  BOOST_TEST(j.unfinished().size() == 1u);
  BOOST_TEST(j.identities(1).empty());
  const std::uint64_t next = j.add_job("{}", {{{"a", "x"}, "files:m:1:2"}});
  BOOST_TEST(next == 2u);
  BOOST_TEST(j.identities(next).size() == 1u);
  SQLite::Database db(path.string(), SQLite::OPEN_READONLY);
  BOOST_TEST(db.execAndGet("PRAGMA user_version").getInt() == 4);
}

BOOST_AUTO_TEST_CASE(calibrations_round_trip_with_their_dates) {
  TempDir dir("baton-journal");
  const fs::path path = dir.path / "journal.sqlite";
  {
    bj::Journal j(path);
    const std::uint64_t a = j.add_calibration(R"({"senders": ["s1"], "receivers": ["r1"]})");
    const std::uint64_t b = j.add_calibration(R"({"senders": ["s2"], "receivers": ["r2"]})");
    j.set_calibration(a, bj::CalibrationState::running);
    j.set_calibration(a, bj::CalibrationState::done, "", R"({"d": 1, "D": 3, "beta": 0.01, "k": 3})");
    j.set_calibration(b, bj::CalibrationState::failed, "agent r2 refused the plan");
    BOOST_TEST(!bj::parse_calibration_state("halfway").has_value());
    BOOST_TEST((bj::parse_calibration_state("cancelled") == bj::CalibrationState::cancelled));
    BOOST_CHECK_THROW(j.set_calibration(9, bj::CalibrationState::done), baton::error::InvalidInput);
  }
  bj::Journal j(path);
  const auto all = j.calibrations();
  BOOST_REQUIRE(all.size() == 2u);
  BOOST_TEST((all[0].state == bj::CalibrationState::done));
  BOOST_TEST(all[0].result == R"({"d": 1, "D": 3, "beta": 0.01, "k": 3})");
  BOOST_TEST(all[0].requested.size() == 20u);  // 2026-11-22T07:50:00Z
  BOOST_TEST(all[0].finished.size() == 20u);
  BOOST_TEST(all[1].error == "agent r2 refused the plan");
  BOOST_TEST(all[1].request == R"({"senders": ["s2"], "receivers": ["r2"]})");
}

BOOST_AUTO_TEST_CASE(replans_are_kept_per_job_in_step_order_once_each) {
  TempDir dir("baton-journal");
  bj::Journal j(dir.path / "journal.sqlite");
  const std::uint64_t job = j.add_job("{}");
  j.add_replan(job, {.at_step = 9, .platform = R"({"backbone_rate": 2})", .record = R"({"why": "b"})"});
  j.add_replan(job, {.at_step = 3, .platform = R"({"backbone_rate": 1})", .record = R"({"why": "a"})"});
  const auto replans = j.replans(job);
  BOOST_REQUIRE(replans.size() == 2u);
  BOOST_TEST(replans[0].at_step == 3u);
  BOOST_TEST(replans[1].platform == R"({"backbone_rate": 2})");
  BOOST_CHECK_THROW(j.add_replan(job, {.at_step = 3, .platform = "{}", .record = "{}"}), baton::error::InvalidInput);
  BOOST_CHECK_THROW(j.add_replan(job + 1, {.at_step = 0, .platform = "{}", .record = "{}"}),
                    baton::error::InvalidInput);
  BOOST_TEST(j.replans(job + 1).empty());
}

BOOST_AUTO_TEST_CASE(bad_files_are_named) {
  TempDir dir("baton-journal");
  const fs::path garbage = dir.path / "garbage.sqlite";
  {
    std::ofstream out(garbage, std::ios::binary);
    for (int i = 0; i < 512; ++i) out << "this is not a database ";
  }
  check_error([&] { bj::Journal j(garbage); }, {garbage.string(), "not a database"});

  const fs::path other = dir.path / "other.sqlite";
  {
    SQLite::Database db(other.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("PRAGMA user_version=99");
  }
  check_error([&] { bj::Journal j(other); }, {other.string(), "schema_version 99", "expected 4"});

  const fs::path foreign = dir.path / "foreign.sqlite";
  {
    SQLite::Database db(foreign.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("CREATE TABLE t (x)");
  }
  check_error([&] { bj::Journal j(foreign); }, {foreign.string(), "not a Baton journal"});

  const fs::path nowhere = dir.path / "missing-dir" / "journal.sqlite";
  check_error([&] { bj::Journal j(nowhere); }, {nowhere.string()});
}

// A child writes and dies without closing (no destructors, no checkpoint); the parent's
// reopened journal still finds what each call had written when it returned.
BOOST_AUTO_TEST_CASE(records_survive_a_dying_process) {
  TempDir dir("baton-journal");
  const fs::path file = dir.path / "journal.sqlite";
  std::uint64_t before = 0;
  {
    bj::Journal j(file);
    before = j.add_job("{}");
  }
  const pid_t child = fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    int code = 1;
    try {
      auto* j = new bj::Journal(file);  // never deleted: the process just ends
      const std::uint64_t id = j->add_job(R"({"from":"child"})");
      j->set_state(id, "running");
      j->record_step(id, {0, 1, 0.1, 0.2, 123, "2026-11-22T08:00:00Z"});
      code = 0;
    } catch (...) {
    }
    _exit(code);
  }
  int status = 0;
  BOOST_REQUIRE(waitpid(child, &status, 0) == child);
  BOOST_REQUIRE(WIFEXITED(status));
  BOOST_REQUIRE_EQUAL(WEXITSTATUS(status), 0);

  bj::Journal j(file);
  const auto jobs = j.jobs();
  BOOST_REQUIRE_EQUAL(jobs.size(), 2u);
  BOOST_TEST(jobs[1].id > before);
  BOOST_TEST(jobs[1].spec == R"({"from":"child"})");
  BOOST_TEST(jobs[1].state == "running");
  const auto steps = j.steps(jobs[1].id);
  BOOST_REQUIRE_EQUAL(steps.size(), 1u);
  BOOST_TEST(steps[0].bytes == 123u);
  BOOST_TEST((j.unfinished() == std::vector<std::uint64_t>{before, jobs[1].id}));
}

BOOST_AUTO_TEST_SUITE_END()
