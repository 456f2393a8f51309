// batonctl's job commands as a user runs them: the real binary against a fake coordinator
// (an httplib::Server in this process serving docs/runtime.md's canned answers and
// recording what it was asked).
#include "tests/support/run_process.h"

#include <httplib.h>
#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

using baton::test::run_process;
using nlohmann::json;

namespace {

struct Request {
  std::string method, path, body, authorization, wait, view;  // wait, view: the query's parameters, if any
  std::chrono::steady_clock::time_point at{};                 // when it arrived
};

const char* const kReport = R"({"algorithm": "oggp", "k": 3, "flow_rate": 12500000, "steps": [
  {"index": 0, "flows": 3, "bytes": 30000000, "predicted_seconds": 0.802, "planned_start_seconds": 0,
   "measured_seconds": 0.85, "attempts": 1}],
  "predicted_seconds": 2.41, "lower_bound_seconds": 2.2, "measured_steps_seconds": 2.5, "measured_seconds": 2.6})";

// A job as the coordinator answers GET /v1/jobs/ID (docs/runtime.md), `fields` replacing the
// defaults.
json job_answer(const json& fields) {
  json job = json::parse(R"({"id": "7", "state": "running", "error": "", "submitted": "2026-11-22T08:00:00Z",
    "algorithm": "oggp", "senders": ["a0"], "receivers": ["b1"], "bytes": 0, "bytes_done": 0, "step": 0,
    "steps": 0, "elapsed_seconds": 0})");
  job.update(fields);
  return job;
}

// A finished job with per-node timing (docs/runtime.md): one step, a0 → b1.
const char* const kJobWithNodes = R"({"id": "5", "state": "done", "error": "", "submitted": "2026-11-22T08:00:00Z",
  "algorithm": "ggp", "senders": ["a0"], "receivers": ["b1"], "bytes": 4096, "bytes_done": 4096, "step": 1,
  "steps": 1, "elapsed_seconds": 0.55,
  "report": {"algorithm": "ggp", "k": 1, "flow_rate": 12500000, "predicted_seconds": 0.5, "lower_bound_seconds": 0.5,
    "measured_steps_seconds": 0.52, "measured_seconds": 0.55, "steps": [{"index": 0, "flows": 1, "bytes": 4096, "predicted_seconds": 0.5,
    "planned_start_seconds": 0, "measured_seconds": 0.52, "attempts": 1, "started_seconds": 0.01,
    "nodes": {"a0": {"planned_bytes": 4096, "planned_seconds": 0.5, "bytes": 4096, "seconds": 0.51},
              "b1": {"planned_bytes": 4096, "planned_seconds": 0.5, "bytes": 4096, "seconds": 0.505}}}]}})";

class FakeCoordinator {
 public:
  FakeCoordinator() {
    auto record = [this](const httplib::Request& req) {
      std::lock_guard lock(mutex_);
      requests_.push_back({req.method, req.path, req.body, req.get_header_value("Authorization"),
                           req.get_param_value("wait"), req.get_param_value("view"), std::chrono::steady_clock::now()});
    };
    server_.Get("/v1/agents", [=](const httplib::Request& req, httplib::Response& res) {
      record(req);
      res.set_content(R"({"agents": [{"node": "a0", "alive": true, "addresses": ["10.0.0.1:7000"],
        "transports": ["tcp"], "rate": 12500000, "last_heartbeat_age": 0.4, "job": "7"},
        {"node": "b1", "alive": false, "addresses": ["10.0.0.2:7000"], "transports": ["tcp"],
        "rate": 12500000, "last_heartbeat_age": 31.0, "job": null}]})",
                      "application/json");
    });
    server_.Get("/v1/jobs", [=](const httplib::Request& req, httplib::Response& res) {
      record(req);
      res.set_content(R"({"jobs": [{"id": "7", "state": "running", "algorithm": "oggp", "steps": 3,
        "step": 1, "bytes": 30000000, "bytes_done": 10000000, "submitted": "2026-11-22T08:00:00Z"},
        {"id": "8", "state": "queued", "algorithm": "ggp", "steps": 0, "step": 0, "bytes": 4096,
        "bytes_done": 0, "submitted": "2026-11-22T08:01:00Z"}]})",
                      "application/json");
    });
    server_.Post("/v1/jobs", [=](const httplib::Request& req, httplib::Response& res) {
      record(req);
      const json job = json::parse(req.body, nullptr, false);
      if (job.is_discarded() || job.value("algorithm", "") == "nope") {
        res.status = 400;
        res.set_content(R"({"error": "algorithm: unknown \"nope\""})", "application/json");
        return;
      }
      res.status = 201;
      res.set_content(R"({"id": "7"})", "application/json");
    });
    // Job 7 runs for two polls of its progress, then is done (its report only in a whole
    // job's answer); job 9 fails at once; others are 404.
    server_.Get(R"(/v1/jobs/(\w+))", [=, this](const httplib::Request& req, httplib::Response& res) {
      record(req);
      const std::string id = req.matches[1];
      if (id == "7") {
        const bool progress = req.get_param_value("view") == "progress";
        const int n = progress ? polls_++ : polls_.load();
        json job = job_answer({{"id", "7"}, {"algorithm", "oggp"}, {"steps", 3}, {"bytes", 30000000}});
        job["state"] = n < 2 ? "running" : "done";
        job["step"] = std::min(n, 2);
        job["bytes_done"] = n < 2 ? 10000000 * (n + 1) : 30000000;
        if (n >= 2 && !progress) job["report"] = json::parse(kReport);
        res.set_content(job.dump(), "application/json");
      } else if (id == "5") {
        res.set_content(kJobWithNodes, "application/json");
      } else if (id == "8") {
        res.set_content(job_answer({{"id", "8"}, {"state", "queued"}}).dump(), "application/json");
      } else if (id == "9") {
        res.set_content(job_answer({{"id", "9"}, {"state", "failed"}, {"error", "agent b1 lost"}}).dump(),
                        "application/json");
      } else if (id == "10") {  // not a job: what a coordinator could never answer
        res.set_content(R"({"id": "10", "state": "running"})", "application/json");
      } else {
        res.status = 404;
        res.set_content(R"({"error": "no job )" + id + R"("})", "application/json");
      }
    });
    // Calibration 3 is not one: what a coordinator could never answer.
    server_.Get("/v1/calibrations/3", [=](const httplib::Request& req, httplib::Response& res) {
      record(req);
      res.set_content(R"({"id": "3", "state": "done", "error": "", "requested": "2026-11-24T10:00:00Z",
        "finished": "2026-11-24T10:00:09Z", "seconds": 9.5, "senders": ["a0"], "receivers": ["b0"], "d": "fast"})",
                      "application/json");
    });
    server_.Post(R"(/v1/jobs/(\w+)/cancel)", [=](const httplib::Request& req, httplib::Response& res) {
      record(req);
      res.set_content(R"({"id": "7", "state": "cancelled"})", "application/json");
    });
    server_.Delete(R"(/v1/calibrations/(\w+))", [=](const httplib::Request& req, httplib::Response& res) {
      record(req);
      if (req.matches[1] == "3") {
        res.set_content(R"({"id": "3", "state": "cancelled"})", "application/json");
      } else {
        res.status = 409;
        res.set_content(R"({"error": "calibration 4 already done"})", "application/json");
      }
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // bind_to_any_port already listens, so this request waits in the backlog until the
    // server's loop answers it (404: no route); stop() is a no-op before the loop runs.
    httplib::Client("127.0.0.1", port_).Get("/ready");
  }
  ~FakeCoordinator() {
    server_.stop();
    thread_.join();
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::vector<Request> requests() {
    std::lock_guard lock(mutex_);
    return requests_;
  }

  // Runs batonctl with --coordinator pointing here.
  baton::test::ProcessResult run(std::vector<std::string> args, const std::string& input = {}) {
    args.insert(args.begin(), BATONCTL_PATH);
    args.insert(args.begin() + 2, {"--coordinator", url()});
    return run_process(args, input);
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<Request> requests_;
  std::atomic<int> polls_{0};
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A file in /tmp for the duration of one test.
struct TempFile {
  TempFile(const std::string& name, const std::string& text)
      : path("/tmp/baton_test_job_commands_" + std::to_string(::getpid()) + "_" + name) {
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
  std::string path;
};

const std::string kJob = R"({"senders": ["a0"], "receivers": ["b1"], "algorithm": "oggp",
  "platform": {"sender_rate": 12500000, "receiver_rate": 12500000, "backbone_rate": 37500000,
               "step_startup": 0.002},
  "transfers": [{"src_node": "a0", "src_file": "x.bin", "src_offset": 0, "length": 4096,
                 "dst_node": "b1", "dst_file": "y.bin", "dst_offset": 0}]})";

}  // namespace

BOOST_AUTO_TEST_CASE(submit_posts_the_job_with_the_algo_override_and_prints_the_id) {
  FakeCoordinator fake;
  const TempFile job_file("job.json", kJob);
  const std::string& file = job_file.path;
  const auto r = fake.run({"submit", file, "--algo", "ggp"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out == "7\n");
  const auto reqs = fake.requests();
  BOOST_TEST_REQUIRE(reqs.size() == 1u);
  BOOST_TEST(reqs[0].method == "POST");
  BOOST_TEST(reqs[0].path == "/v1/jobs");
  json expected = json::parse(kJob);
  expected["algorithm"] = "ggp";
  BOOST_TEST(json::parse(reqs[0].body) == expected);
  BOOST_TEST(reqs[0].authorization.empty());
}

BOOST_AUTO_TEST_CASE(submit_reads_stdin_and_sends_the_bearer_token) {
  FakeCoordinator fake;
  const TempFile token_file("token", "s3cret\n");
  const std::string& token = token_file.path;
  const auto r = fake.run({"submit", "-", "--token-file", token}, kJob);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto reqs = fake.requests();
  BOOST_TEST_REQUIRE(reqs.size() == 1u);
  BOOST_TEST(reqs[0].authorization == "Bearer s3cret");
  BOOST_TEST(json::parse(reqs[0].body) == json::parse(kJob));
}

BOOST_AUTO_TEST_CASE(jobs_and_agents_print_tables_with_the_rows) {
  FakeCoordinator fake;
  const auto jobs = fake.run({"jobs"});
  BOOST_TEST_REQUIRE(jobs.exit_code == 0, jobs.err);
  BOOST_TEST(has(jobs.out, "ID  STATE    ALGORITHM"), jobs.out);
  BOOST_TEST(has(jobs.out, "7   running  oggp       3      1     30.00 MB  10.00 MB"), jobs.out);
  BOOST_TEST(has(jobs.out, "8   queued   ggp"), jobs.out);
  const auto agents = fake.run({"agents"});
  BOOST_TEST_REQUIRE(agents.exit_code == 0, agents.err);
  BOOST_TEST(has(agents.out, "a0    yes    10.0.0.1:7000"), agents.out);
  BOOST_TEST(has(agents.out, "b1    no"), agents.out);
}

BOOST_AUTO_TEST_CASE(status_json_round_trips_the_servers_answer) {
  FakeCoordinator fake;
  const auto r = fake.run({"status", "9", "--output", "json"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(json::parse(r.out) == job_answer({{"id", "9"}, {"state", "failed"}, {"error", "agent b1 lost"}}));
  const auto t = fake.run({"status", "9"});
  BOOST_TEST(has(t.out, "error:      agent b1 lost"), t.out);
}

BOOST_AUTO_TEST_CASE(watch_follows_the_job_to_done_and_prints_the_totals) {
  FakeCoordinator fake;
  const auto r = fake.run({"watch", "7"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto asked = fake.requests();
  BOOST_TEST_REQUIRE(asked.size() == 4u);
  // The first poll answers at once; the others wait at the coordinator for the job's end.
  BOOST_TEST(asked[0].wait == "");
  BOOST_TEST(asked[1].wait == "0.5");
  BOOST_TEST(asked[2].wait == "0.5");
  // Polls ask for the job's progress; its report (nodes x steps lines) comes once, at the end.
  for (std::size_t i = 0; i < 3; ++i) BOOST_TEST(asked[i].view == "progress");
  BOOST_TEST(asked[3].view == "");
  BOOST_TEST(asked[3].wait == "");
  // The first wait is asked for at once: a watch that slept a poll first saw a 10 ms job
  // done 0.5 s late. (Bounded below 0.5 s, the poll: the old watch could not ask sooner.)
  BOOST_TEST(std::chrono::duration<double>(asked[1].at - asked[0].at).count() < 0.45);
  BOOST_TEST(has(r.out, "job 7: running  step 1/3"), r.out);
  BOOST_TEST(has(r.out, "job 7: running  step 2/3"), r.out);
  BOOST_TEST(has(r.out, "job 7: done  step 3/3"), r.out);
  BOOST_TEST(has(r.out, "0     3      30.00 MB  0.802        0.850       1"), r.out);
  BOOST_TEST(has(r.out,
                 "total: measured 2.600 s, predicted 2.410 s, lower bound 2.200 s, "
                 "measured/predicted 1.08"),
             r.out);
}

BOOST_AUTO_TEST_CASE(submit_wait_with_json_output_prints_the_final_job) {
  FakeCoordinator fake;
  const auto r = fake.run({"submit", "-", "--wait", "--output", "json"}, kJob);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST_REQUIRE(r.out.substr(0, 2) == "7\n");
  const json job = json::parse(r.out.substr(2));
  BOOST_TEST(job.at("state") == "done");
  BOOST_TEST(job.at("report").at("measured_seconds") == 2.6);
}

BOOST_AUTO_TEST_CASE(a_failed_job_exits_1_with_its_error) {
  FakeCoordinator fake;
  const auto r = fake.run({"watch", "9"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err == "batonctl: job 9 failed: agent b1 lost\n");
}

BOOST_AUTO_TEST_CASE(a_server_error_exits_1_with_its_text) {
  FakeCoordinator fake;
  const auto r = fake.run({"submit", "-", "--algo", "nope"}, kJob);
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(r.err == "batonctl: algorithm: unknown \"nope\"\n");
  const auto missing = fake.run({"status", "42"});
  BOOST_TEST(missing.exit_code == 1);
  BOOST_TEST(missing.err == "batonctl: no job 42\n");
}

BOOST_AUTO_TEST_CASE(an_answer_that_is_not_a_calibration_exits_1_naming_the_field) {
  FakeCoordinator fake;
  const auto r = fake.run({"calibrations", "3"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err == "batonctl: the coordinator's answer is not a calibration: d: must be a number, not string\n");
}

BOOST_AUTO_TEST_CASE(an_answer_that_is_not_a_job_exits_1_naming_the_field) {
  FakeCoordinator fake;
  const auto r = fake.run({"status", "10"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err == "batonctl: the coordinator's answer is not a job: error: missing\n");
}

BOOST_AUTO_TEST_CASE(cancel_posts_and_prints_the_state) {
  FakeCoordinator fake;
  const auto r = fake.run({"cancel", "7"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out == "job 7: cancelled\n");
  const auto reqs = fake.requests();
  BOOST_TEST_REQUIRE(reqs.size() == 1u);
  BOOST_TEST(reqs[0].method == "POST");
  BOOST_TEST(reqs[0].path == "/v1/jobs/7/cancel");
}

// Issue 27: a calibration can be cancelled from the command line (DELETE /v1/calibrations/ID).
BOOST_AUTO_TEST_CASE(calibrate_cancel_deletes_the_calibration_and_prints_its_state) {
  FakeCoordinator fake;
  const auto r = fake.run({"calibrate", "--cancel", "3"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out == "calibration 3: cancelled\n");
  const auto reqs = fake.requests();
  BOOST_TEST_REQUIRE(reqs.size() == 1u);
  BOOST_TEST(reqs[0].method == "DELETE");
  BOOST_TEST(reqs[0].path == "/v1/calibrations/3");
  const auto ended = fake.run({"calibrate", "--cancel", "4"});
  BOOST_TEST(ended.exit_code == 1);
  BOOST_TEST(has(ended.err, "calibration 4 already done"), ended.err);
  const auto both = fake.run({"calibrate", "--cancel", "3", "--senders", "a0"});
  BOOST_TEST(both.exit_code == 2, both.err);
}

BOOST_AUTO_TEST_CASE(an_unreachable_coordinator_exits_3_naming_the_url_and_the_cause) {
  const auto r = run_process({BATONCTL_PATH, "jobs", "--coordinator", "http://127.0.0.1:1"});
  BOOST_TEST(r.exit_code == 3);
  BOOST_TEST(r.err == "batonctl: cannot reach the coordinator at http://127.0.0.1:1: Connection refused\n");
  // .invalid never resolves (RFC 2606).
  const auto unresolved = run_process({BATONCTL_PATH, "jobs", "--coordinator", "http://baton.invalid:7070"});
  BOOST_TEST(unresolved.exit_code == 3);
  BOOST_TEST(unresolved.err.starts_with("batonctl: cannot reach the coordinator at http://baton.invalid:7070: "
                                        "cannot resolve 'baton.invalid': "),
             unresolved.err);
}

// Standby coordinators (docs/ha.md) listen for nothing: batonctl asks the next URL.
BOOST_AUTO_TEST_CASE(several_coordinator_urls_reach_the_one_that_listens_or_exit_3_naming_each) {
  FakeCoordinator fake;
  const auto jobs = run_process({BATONCTL_PATH, "jobs", "--coordinator", "http://127.0.0.1:1," + fake.url()});
  BOOST_TEST_REQUIRE(jobs.exit_code == 0, jobs.err);
  BOOST_TEST(has(jobs.out, "7   running  oggp"), jobs.out);
  const TempFile job_file("job.json", kJob);
  const auto submitted =
      run_process({BATONCTL_PATH, "submit", job_file.path, "--coordinator", "http://127.0.0.1:1," + fake.url()});
  BOOST_TEST_REQUIRE(submitted.exit_code == 0, submitted.err);
  BOOST_TEST(fake.requests().size() == 2u);  // each request once, at the coordinator that listens

  const auto none = run_process({BATONCTL_PATH, "jobs", "--coordinator", "http://127.0.0.1:1,http://127.0.0.1:2"});
  BOOST_TEST(none.exit_code == 3);
  BOOST_TEST(none.err ==
                 "batonctl: cannot reach any coordinator: http://127.0.0.1:1: Connection refused; "
                 "http://127.0.0.1:2: Connection refused\n",
             none.err);
  const auto malformed = run_process({BATONCTL_PATH, "jobs", "--coordinator", "http://127.0.0.1:1,"});
  BOOST_TEST(malformed.exit_code == 2, malformed.err);
}

BOOST_AUTO_TEST_CASE(a_malformed_coordinator_url_is_a_usage_error_naming_it) {
  for (const std::string url : {"htp://127.0.0.1:7070", "http://:7070", "http://127.0.0.1:99999",
                                "http://127.0.0.1:70x", "http://127.0.0.1:7070/api", "http://[::1", ""}) {
    const auto r = run_process({BATONCTL_PATH, "jobs", "--coordinator", url});
    BOOST_TEST(r.exit_code == 2, url << ": " << r.err);
    BOOST_TEST(r.err.starts_with("batonctl: --coordinator '" + url + "': "), r.err);
    BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  for (const std::string url : {"127.0.0.1:1", "http://127.0.0.1:1/", "http://[::1]:1"}) {  // well formed
    const auto r = run_process({BATONCTL_PATH, "jobs", "--coordinator", url});
    BOOST_TEST(r.exit_code == 3, url << ": " << r.err);
  }
}

BOOST_AUTO_TEST_CASE(a_missing_file_is_named_once) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"submit", "/nonexistent/job.json"},
                                               {"jobs", "--token-file", "/nonexistent/job.json"}}) {
    std::vector<std::string> argv{BATONCTL_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = run_process(argv);
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.err == "batonctl: /nonexistent/job.json: cannot open: No such file or directory\n");
  }
}

BOOST_AUTO_TEST_CASE(token_file_help_says_the_variable_holds_the_token_itself) {
  const auto r = run_process({BATONCTL_PATH, "jobs", "--help"});
  BOOST_TEST(!has(r.out, "default: env BATON_API_TOKEN"), r.out);
  BOOST_TEST(has(r.out, "the token itself from env BATON_API_TOKEN"), r.out);
}

BOOST_AUTO_TEST_CASE(a_bad_job_file_exits_2_naming_it) {
  FakeCoordinator fake;
  const TempFile bad_file("bad.json", "{\"senders\": [");
  const std::string& file = bad_file.path;
  const auto r = fake.run({"submit", file});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  BOOST_TEST(has(r.err, file), r.err);
  BOOST_TEST(fake.requests().empty());
}

BOOST_AUTO_TEST_CASE(report_prints_the_steps_then_each_node_planned_against_measured) {
  FakeCoordinator fake;
  const auto r = fake.run({"report", "5"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(has(r.out, "algorithm: ggp  k: 1"), r.out);
  BOOST_TEST(has(r.out, "STEP  NODE  PLANNED START  PLANNED S  PLANNED BYTES  STARTED  MEASURED S  BYTES"), r.out);
  BOOST_TEST(has(r.out, "0     a0    0.000          0.500      4.10 kB        0.010    0.510       4.10 kB"), r.out);
  BOOST_TEST(has(r.out, "0     b1    0.000          0.500      4.10 kB        0.010    0.505       4.10 kB"), r.out);
  const auto j = fake.run({"report", "5", "-o", "json"});
  BOOST_TEST_REQUIRE(j.exit_code == 0, j.err);
  BOOST_TEST(json::parse(j.out) == json::parse(kJobWithNodes).at("report"));
}

BOOST_AUTO_TEST_CASE(report_svg_writes_the_chart_to_a_file_or_stdout) {
  FakeCoordinator fake;
  const TempFile chart("gantt.svg", "old contents");
  const auto r = fake.run({"report", "5", "--svg", chart.path});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(has(r.out, "STEP  NODE"), r.out);
  std::ifstream file(chart.path);
  const std::string svg((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  BOOST_TEST(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), svg.substr(0, 80));
  BOOST_TEST(svg.ends_with("</svg>\n"));
  const auto out = fake.run({"report", "5", "--svg", "-"});
  BOOST_TEST_REQUIRE(out.exit_code == 0, out.err);
  BOOST_TEST(out.out == svg);  // only the chart on stdout, the same one
}

BOOST_AUTO_TEST_CASE(report_of_a_job_without_a_report_or_to_an_unwritable_file_fails_clearly) {
  FakeCoordinator fake;
  const auto queued = fake.run({"report", "8"});
  BOOST_TEST(queued.exit_code == 1);
  BOOST_TEST(queued.err == "batonctl: job 8 has no report yet (state queued)\n");
  const auto unwritable = fake.run({"report", "5", "--svg", "/nonexistent-dir/gantt.svg"});
  BOOST_TEST(unwritable.exit_code == 2);
  BOOST_TEST(unwritable.err == "batonctl: /nonexistent-dir/gantt.svg: cannot write: No such file or directory\n");
}

BOOST_AUTO_TEST_CASE(every_command_s_help_has_examples_and_the_exit_codes) {
  const std::vector<std::vector<std::string>> commands{{},
                                                       {"submit"},
                                                       {"status"},
                                                       {"jobs"},
                                                       {"agents"},
                                                       {"cancel"},
                                                       {"watch"},
                                                       {"report"},
                                                       {"completion"},
                                                       {"plan", "redistribution"},
                                                       {"plan", "multicast"}};
  for (const auto& command : commands) {
    std::vector<std::string> argv{BATONCTL_PATH};
    argv.insert(argv.end(), command.begin(), command.end());
    argv.push_back("--help");
    const auto r = run_process(argv);
    BOOST_TEST(r.exit_code == 0, argv.at(argv.size() - 2));
    BOOST_TEST(has(r.out, "Example"), r.out);
    BOOST_TEST(has(r.out, "Exit status: 0"), r.out);
  }
}

namespace {

// Runs batonctl's bash completion as readline would: COMP_WORDS set, COMP_CWORD on the
// last word (the one being completed), in `dir`. Returns COMPREPLY sorted.
std::vector<std::string> complete(const std::vector<std::string>& words, const std::string& dir = "/") {
  const auto script = run_process({BATONCTL_PATH, "completion", "bash"});
  BOOST_TEST_REQUIRE(script.exit_code == 0, script.err);
  const TempFile file("completion.bash", script.out);
  std::vector<std::string> argv{"/usr/bin/bash",
                                "-c",
                                "source \"$1\" && cd \"$2\" && COMP_WORDS=(\"${@:3}\") && "
                                "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )) && { _batonctl; true; } && "
                                "for w in \"${COMPREPLY[@]}\"; do echo \"$w\"; done",
                                "bash",
                                file.path,
                                dir};
  argv.insert(argv.end(), words.begin(), words.end());
  const auto r = run_process(argv);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.empty(), r.err);
  std::vector<std::string> reply;
  std::size_t start = 0;
  for (std::size_t end; (end = r.out.find('\n', start)) != std::string::npos; start = end + 1) {
    reply.push_back(r.out.substr(start, end - start));
  }
  std::sort(reply.begin(), reply.end());
  return reply;
}

using Words = std::vector<std::string>;

}  // namespace

BOOST_AUTO_TEST_CASE(bash_completion_offers_commands_subcommands_and_options) {
  BOOST_TEST((complete({"batonctl", ""}) == Words{"agents", "calibrate", "calibrations", "cancel", "completion", "jobs",
                                                  "plan", "report", "status", "submit", "watch"}));
  BOOST_TEST((complete({"batonctl", "re"}) == Words{"report"}));
  BOOST_TEST((complete({"batonctl", "plan", "re"}) == Words{"redistribution", "reduction"}));
  BOOST_TEST((complete({"batonctl", "report", "--coordinator", "http://127.0.0.1:1", "--"}) ==
              Words{"--coordinator", "--help", "--output", "--svg", "--token-file"}));
  BOOST_TEST((complete({"batonctl", "completion", ""}) == Words{"bash"}));
}

BOOST_AUTO_TEST_CASE(bash_completion_offers_values_files_and_job_ids) {
  BOOST_TEST((complete({"batonctl", "jobs", "-o", ""}) == Words{"json", "table"}));
  // A job takes the algorithms of `batonctl plan redistribution` (docs/runtime.md), fluid
  // and auto among them.
  BOOST_TEST((complete({"batonctl", "submit", "job.json", "--algo", ""}) ==
              Words{"all-at-once", "auto", "fluid", "ggp", "h-degree", "h-weight", "oggp", "oggp-plus"}));
  BOOST_TEST((complete({"batonctl", "plan", "redistribution", "--algo", "h-"}) == Words{"h-degree", "h-weight"}));
  const std::string dir = "/tmp/baton_test_completion_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/job-a.json") << "{}";
  std::ofstream(dir + "/job-b.json") << "{}";
  BOOST_TEST((complete({"batonctl", "submit", "job-"}, dir) == Words{"job-a.json", "job-b.json"}));
  BOOST_TEST((complete({"batonctl", "report", "1", "--svg", "job-a"}, dir) == Words{"job-a.json"}));
  std::filesystem::remove_all(dir);
  // Job ids come from the coordinator named on the command line.
  FakeCoordinator fake;
  BOOST_TEST((complete({BATONCTL_PATH, "status", "--coordinator", fake.url(), ""}) == Words{"7", "8"}));
  BOOST_TEST((complete({BATONCTL_PATH, "status", "--coordinator", "http://127.0.0.1:1", ""}).empty()));
}
