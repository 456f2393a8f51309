// How a handoff waits for its job (coupling/session.cpp, docs/runtime.md, "Waiting for a
// job"), against a coordinator's API played by a small HTTP server in this process: each
// look asks the coordinator to wait, bounded by the session's timeout; a coordinator that
// answers at once (one without ?wait=) is looked at again after a growing pause, not in a
// busy loop; a job that does not end within the timeout is cancelled.
#include "coupling/error.h"
#include "coupling/session.h"

#include <httplib.h>
#include <boost/test/unit_test.hpp>

#include <charconv>
#include <mutex>
#include <thread>
#include <vector>

using baton::coupling::Errc;
using baton::coupling::Error;
using baton::coupling::Layout;
using baton::coupling::Session;

namespace {

// POST /v1/jobs answers job 1; GET /v1/jobs/1 answers "running" until `looks_to_end`
// looks were made (never, if 0), then "done"; every look's wait= is kept.
class FakeApi {
 public:
  explicit FakeApi(int looks_to_end) : looks_to_end_(looks_to_end) {
    server_.Post("/v1/jobs", [](const httplib::Request&, httplib::Response& response) {
      response.status = 201;
      response.set_content(R"({"id": "1"})", "application/json");
    });
    server_.Get("/v1/jobs/1", [this](const httplib::Request& request, httplib::Response& response) {
      const std::lock_guard lock(mutex_);
      waits_.push_back(request.has_param("wait") ? request.get_param_value("wait") : "");
      const bool done = looks_to_end_ > 0 && static_cast<int>(waits_.size()) >= looks_to_end_;
      response.set_content(done ? R"({"id": "1", "state": "done", "report": {"steps": [{"bytes": 64}]}})"
                                : R"({"id": "1", "state": "running"})",
                           "application/json");
    });
    server_.Post("/v1/jobs/1/cancel", [this](const httplib::Request&, httplib::Response& response) {
      const std::lock_guard lock(mutex_);
      cancelled_ = true;
      response.set_content(R"({"id": "1", "state": "cancelled"})", "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    BOOST_REQUIRE(port_ > 0);
    // Bound and listening already: a request waits in the backlog until the loop accepts it.
    serving_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~FakeApi() {
    server_.stop();
    serving_.join();
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  std::vector<std::string> waits() {
    const std::lock_guard lock(mutex_);
    return waits_;
  }
  bool cancelled() {
    const std::lock_guard lock(mutex_);
    return cancelled_;
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread serving_;
  std::mutex mutex_;
  int looks_to_end_;
  std::vector<std::string> waits_;
  bool cancelled_ = false;
};

double seconds(const std::string& text) {
  double value = -1;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

const Layout kFrom = Layout::make({4, 4}, 4, {"p0"}, {.dim = 0});
const Layout kTo = Layout::make({4, 4}, 4, {"c0"}, {.dim = 0});

}  // namespace

BOOST_AUTO_TEST_SUITE(session_wait)

BOOST_AUTO_TEST_CASE(a_coordinator_that_answers_at_once_is_looked_at_again_after_a_pause) {
  FakeApi api(4);  // answers at once, as a coordinator without ?wait= would
  baton::coupling::SessionOptions options;
  options.api = api.address();
  Session coupler(options);
  const auto started = std::chrono::steady_clock::now();
  const auto result = coupler.handoff("x", kFrom, kTo);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  BOOST_TEST((result.state == baton::coupling::JobState::done));
  BOOST_TEST(result.bytes == 64u);
  const auto waits = api.waits();
  BOOST_REQUIRE_EQUAL(waits.size(), 4u);  // no busy loop: a look per pause
  for (const std::string& w : waits) BOOST_TEST((seconds(w) > 0 && seconds(w) <= 5), w);
  // Three pauses of 2, 4 and 8 ms before the fourth look: at least 14 ms.
  BOOST_TEST(took >= 0.014);
}

BOOST_AUTO_TEST_CASE(a_job_that_does_not_end_in_time_is_cancelled_and_no_look_waits_past_the_timeout) {
  FakeApi api(0);
  baton::coupling::SessionOptions options;
  options.api = api.address();
  options.timeout = std::chrono::milliseconds(300);
  Session coupler(options);
  try {
    coupler.handoff("x", kFrom, kTo);
    BOOST_FAIL("a job that never ends was not given up");
  } catch (const Error& e) {
    BOOST_TEST((e.code() == Errc::timeout), e.what());
    BOOST_TEST(std::string(e.what()).find("job 1 did not end within 300 ms (state running)") != std::string::npos,
               e.what());
  }
  BOOST_TEST(api.cancelled());
  const auto waits = api.waits();
  BOOST_REQUIRE(!waits.empty());
  for (const std::string& w : waits) BOOST_TEST((seconds(w) > 0 && seconds(w) <= 0.3), w);
}

BOOST_AUTO_TEST_SUITE_END()
