// A standby coordinator's API without a network (docs/ha.md, "Agents and operators"): which
// requests it answers itself, where it sends the others, and what it answers from a
// journal it does not run (StandbyView over a real SQLite journal).
#include "coordinator/daemon/request_error.h"
#include "coordinator/daemon/standby_api.h"
#include "coordinator/daemon/standby_routes.h"
#include "coordinator/daemon/standby_view.h"
#include "coordinator/journal/journal.h"
#include "error/error.h"
#include "tests/support/temp_dir.h"

#include <httplib.h>
#include <boost/test/unit_test.hpp>

#include <mutex>
#include <optional>

using baton::coordinator::leader_location;
using baton::coordinator::RequestError;
using baton::coordinator::standby_answers;
using baton::coordinator::StandbyView;

BOOST_AUTO_TEST_CASE(a_standby_answers_the_journals_reads_and_sends_the_rest_on) {
  for (const char* path :
       {"/metrics", "/", "/jobs/3", "/v1/jobs", "/v1/jobs/3", "/v1/calibrations", "/v1/calibrations/2"})
    BOOST_TEST(standby_answers("GET", path), path);
  BOOST_TEST(standby_answers("HEAD", "/v1/jobs"));
  // Writes, and reads only the leader's memory holds.
  BOOST_TEST(!standby_answers("POST", "/v1/jobs"));
  BOOST_TEST(!standby_answers("POST", "/v1/jobs/3/cancel"));
  BOOST_TEST(!standby_answers("POST", "/v1/calibrations"));
  BOOST_TEST(!standby_answers("DELETE", "/v1/calibrations/2"));
  BOOST_TEST(!standby_answers("GET", "/v1/agents"));
  BOOST_TEST(!standby_answers("GET", "/v1/jobs/3/gantt.svg"));
  BOOST_TEST(!standby_answers("GET", "/v1/calibrations/2/curve.svg"));
  BOOST_TEST(!standby_answers("GET", "/v1/jobs/3/cancel/extra"));
}

BOOST_AUTO_TEST_CASE(the_redirect_names_the_leaders_api_with_the_same_path_and_query) {
  const std::string leader = R"({"id":"c1","api":"10.0.0.1:7070","agents":"10.0.0.1:7071"})";
  BOOST_TEST(leader_location(leader, "/v1/jobs/7/cancel", "c2") == "http://10.0.0.1:7070/v1/jobs/7/cancel");
  BOOST_TEST(leader_location(leader, "/v1/jobs?x=1", "c2") == "http://10.0.0.1:7070/v1/jobs?x=1");
  BOOST_TEST(leader_location(R"({"id":"c1","api":"[::1]:7070"})", "/v1/jobs", "c2") == "http://[::1]:7070/v1/jobs");
}

BOOST_AUTO_TEST_CASE(a_leader_key_that_cannot_be_followed_is_said) {
  const auto refused = [](const std::string& leader, const std::string& says) {
    try {
      leader_location(leader, "/v1/jobs", "c2");
      BOOST_ERROR("no error for " + leader);
    } catch (const baton::error::InvalidInput& e) {
      BOOST_TEST(std::string(e.what()).find(says) != std::string::npos, e.what());
    }
  };
  refused("not json", "names no API address");
  refused(R"({"id":"c1"})", "names no API address");
  refused(R"({"id":"c1","api":""})", "names no API address");
  refused(R"({"id":"c1","api":"0.0.0.0:7070"})", "an address no client can be sent to");
  refused(R"({"id":"c1","api":"[::]:7070"})", "an address no client can be sent to");
  refused(R"({"id":"c2","api":"10.0.0.2:7070"})", "still names this coordinator (c2)");
}

BOOST_AUTO_TEST_CASE(a_standby_shows_the_journals_jobs_and_calibrations_and_writes_nothing) {
  baton::test::TempDir dir{"baton-standby-view"};
  baton::journal::Journal journal(dir.path / "journal.sqlite");
  const std::string spec =
      R"({"senders":["a"],"receivers":["b"],"platform":{"sender_rate":1e6,"receiver_rate":1e6,"backbone_rate":1e6,)"
      R"("step_startup":0.001},"transfers":[{"src_node":"a","src_file":"x","src_offset":0,"length":1000,)"
      R"("dst_node":"b","dst_file":"y","dst_offset":0}]})";
  const std::uint64_t queued = journal.add_job(spec);
  const std::uint64_t running = journal.add_job(spec);
  journal.set_state(running, "running");
  journal.record_step(running, {.step = 0,
                                .attempts = 1,
                                .predicted = 0.5,
                                .measured = 0.6,
                                .bytes = 1000,
                                .finished = baton::journal::utc_now()});
  const std::uint64_t failed = journal.add_job(spec);
  journal.set_state(failed, "failed", "agent b died");
  const std::uint64_t calibrating = journal.add_calibration(R"({"senders":["a"],"receivers":["b"]})");
  journal.set_calibration(calibrating, baton::journal::CalibrationState::running);

  StandbyView view(journal, {});
  const auto jobs = view.jobs().at("jobs");
  BOOST_REQUIRE_EQUAL(jobs.size(), 3u);
  BOOST_TEST(jobs[0].at("state") == "queued");
  BOOST_TEST(jobs[1].at("state") == "running");
  BOOST_TEST(jobs[1].at("bytes_done") == 1000);
  BOOST_TEST(jobs[2].at("state") == "failed");
  BOOST_TEST(view.job(failed).at("error") == "agent b died");
  BOOST_TEST(view.job(queued).at("id") == std::to_string(queued));
  BOOST_CHECK_THROW(view.job(99), RequestError);
  // The leader's calibration runs: the standby shows it running and does not fail it in
  // the journal, as a coordinator starting from the journal would.
  BOOST_TEST(view.calibrations().at("calibrations").at(0).at("state") == "running");
  BOOST_TEST(view.calibration(calibrating).at("state") == "running");
  BOOST_CHECK_THROW(view.calibration(9), RequestError);
  BOOST_TEST((journal.calibrations().at(0).state == baton::journal::CalibrationState::running));
  int status = 200;
  const std::string page = view.status_page(nullptr, "standby", status);
  BOOST_TEST(status == 200);
  BOOST_TEST(page.find("agent b died") != std::string::npos);
  const std::string unknown = "12";
  view.status_page(&unknown, "standby", status);
  BOOST_TEST(status == 404);
}

// The standby's API on loopback, its leader named by a function the test sets: reads
// answered here, writes redirected to the leader with their path, 503 saying why when no
// coordinator leads or etcd cannot be read, and the token checked before anything.
BOOST_AUTO_TEST_CASE(the_standby_api_redirects_writes_and_says_why_it_cannot) {
  baton::test::TempDir dir{"baton-standby-api"};
  baton::journal::Journal journal(dir.path / "journal.sqlite");
  StandbyView view(journal, {});
  std::mutex mutex;
  std::optional<std::string> leader;
  bool unreachable = false;
  baton::coordinator::StandbyApi api(
      view,
      [&]() -> std::optional<std::string> {
        const std::lock_guard lock(mutex);
        if (unreachable) throw std::runtime_error("etcd at http://127.0.0.1:1: Connection refused");
        return leader;
      },
      [] { return std::string("baton_leader 0\n"); }, {.id = "c2", .leader_key = "/baton/t/leader", .token = "tok"});
  api.start("127.0.0.1:0");
  httplib::Client client("http://" + api.address());
  client.set_bearer_token_auth("tok");

  const auto post = client.Post("/v1/jobs/4/cancel", "{}", "application/json");
  BOOST_REQUIRE(post);
  BOOST_TEST(post->status == 503);
  BOOST_TEST(post->body.find("no coordinator leads now (/baton/t/leader is not set in etcd)") != std::string::npos);
  {
    const std::lock_guard lock(mutex);
    leader = R"({"id":"c1","api":"127.0.0.1:7070","agents":"127.0.0.1:7071"})";
  }
  const auto moved = client.Post("/v1/jobs/4/cancel?x=1", "{}", "application/json");
  BOOST_REQUIRE(moved);
  BOOST_TEST(moved->status == 307);
  BOOST_TEST(moved->get_header_value("Location") == "http://127.0.0.1:7070/v1/jobs/4/cancel?x=1");
  const auto removed = client.Delete("/v1/calibrations/2");
  BOOST_REQUIRE(removed);
  BOOST_TEST(removed->status == 307);
  BOOST_TEST(removed->get_header_value("Location") == "http://127.0.0.1:7070/v1/calibrations/2");
  const auto agents = client.Get("/v1/agents");  // the leader's memory: sent on too
  BOOST_REQUIRE(agents);
  BOOST_TEST(agents->status == 307);
  const auto jobs = client.Get("/v1/jobs");  // the journal's: answered here
  BOOST_REQUIRE(jobs);
  BOOST_TEST(jobs->status == 200);
  BOOST_TEST(jobs->body == "{\"jobs\":[]}\n");
  const auto unknown = client.Get("/v1/jobs/5");
  BOOST_REQUIRE(unknown);
  BOOST_TEST(unknown->status == 404);
  {
    const std::lock_guard lock(mutex);
    unreachable = true;
  }
  const auto cut_off = client.Post("/v1/jobs", "{}", "application/json");
  BOOST_REQUIRE(cut_off);
  BOOST_TEST(cut_off->status == 503);
  BOOST_TEST(cut_off->body.find("cannot learn which coordinator leads: etcd at") != std::string::npos);

  httplib::Client stranger("http://" + api.address());
  const auto refused = stranger.Post("/v1/jobs", "{}", "application/json");
  BOOST_REQUIRE(refused);
  BOOST_TEST(refused->status == 401);
  const auto scraped = stranger.Get("/metrics");  // Prometheus scrapes without the token
  BOOST_REQUIRE(scraped);
  BOOST_TEST(scraped->status == 200);
  BOOST_TEST(scraped->body == "baton_leader 0\n");
  api.stop();
}
