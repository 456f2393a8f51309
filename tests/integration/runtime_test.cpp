// The runtime end to end with real processes on loopback: a coordinator, agents, files
// in data roots, jobs submitted over the HTTP API. Every check reads the files or the
// API, never the daemons' internals.
#include "tests/integration/cluster.h"

#include <boost/test/unit_test.hpp>

#include <csignal>
#include <map>
#include <thread>

using baton::test::Cluster;
using baton::test::Json;
using baton::test::read_file;
using baton::test::write_random_file;
using namespace std::chrono_literals;

namespace {

Json platform(double node_rate, double backbone_rate) {
  return {{"sender_rate", node_rate},
          {"receiver_rate", node_rate},
          {"backbone_rate", backbone_rate},
          {"step_startup", 0.001}};
}

Json transfer(const std::string& src, std::uint64_t src_offset, std::uint64_t length, const std::string& dst,
              const std::string& dst_file, std::uint64_t dst_offset, const std::string& src_file = "in.bin") {
  return {{"src_node", src}, {"src_file", src_file}, {"src_offset", src_offset}, {"length", length},
          {"dst_node", dst}, {"dst_file", dst_file}, {"dst_offset", dst_offset}};
}

// Two senders, two receivers, all alive.
struct TwoByTwo {
  Cluster cluster;
  std::string a0, a1;
  TwoByTwo() {
    a0 = write_random_file(cluster.root("a0") / "in.bin", 3'000'000, 1);
    a1 = write_random_file(cluster.root("a1") / "in.bin", 2'000'000, 2);
    for (const char* node : {"a0", "a1", "b0", "b1"}) cluster.start_agent(node);
    BOOST_REQUIRE_MESSAGE(cluster.wait_alive(4), cluster.coordinator_log());
  }
};

std::string submit(Cluster& cluster, const Json& job) {
  const auto [status, body] = cluster.post("/v1/jobs", job.dump());
  BOOST_REQUIRE_MESSAGE(status == 201, "submit answered " << status << ": " << body.dump());
  return body.at("id").get<std::string>();
}

// a0 sends 1 MB to b0 and 0.5 MB to b1, a1 0.4 MB to b1: a node with two flows on each
// side, for the algorithms whose flows share the links.
Json two_flows_a_node(const std::string& algorithm, const Json& platform) {
  return Json{
      {"senders", {"a0", "a1"}},
      {"receivers", {"b0", "b1"}},
      {"algorithm", algorithm},
      {"platform", platform},
      {"transfers",
       {transfer("a0", 0, 1'000'000, "b0", "out.bin", 0), transfer("a0", 1'000'000, 500'000, "b1", "out.bin", 0),
        transfer("a1", 0, 400'000, "b1", "out.bin", 500'000)}}};
}

// Runs two_flows_a_node's job on `t` to its end: done, every byte where it belongs.
Json run_two_flows_a_node(TwoByTwo& t, const Json& job) {
  const Json done = t.cluster.wait_job(submit(t.cluster, job));
  BOOST_TEST_REQUIRE(done.value("state", "") == "done", done.dump() << "\n" << t.cluster.coordinator_log());
  BOOST_TEST((read_file(t.cluster.root("b0") / "out.bin") == t.a0.substr(0, 1'000'000)));
  BOOST_TEST(
      (read_file(t.cluster.root("b1") / "out.bin") == t.a0.substr(1'000'000, 500'000) + t.a1.substr(0, 400'000)));
  return done;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(runtime)

BOOST_AUTO_TEST_CASE(a_job_moves_every_byte_to_its_place_and_reports_each_step) {
  TwoByTwo t;
  // Every sender owes every receiver something, in pieces of both files.
  const Json job{{"senders", {"a0", "a1"}},
                 {"receivers", {"b0", "b1"}},
                 {"platform", platform(20e6, 40e6)},
                 {"transfers",
                  {transfer("a0", 0, 1'000'000, "b0", "out.bin", 0),
                   transfer("a0", 1'000'000, 2'000'000, "b1", "out.bin", 500'000),
                   transfer("a1", 0, 1'500'000, "b0", "out.bin", 1'000'000),
                   transfer("a1", 1'500'000, 500'000, "b1", "out.bin", 0)}}};
  const std::string id = submit(t.cluster, job);
  const Json done = t.cluster.wait_job(id);
  BOOST_REQUIRE_MESSAGE(done.value("state", "") == "done", done.dump() << "\n" << t.cluster.coordinator_log());
  const std::string b0 = read_file(t.cluster.root("b0") / "out.bin");
  const std::string b1 = read_file(t.cluster.root("b1") / "out.bin");
  BOOST_REQUIRE(b0.size() == 2'500'000u);
  BOOST_REQUIRE(b1.size() == 2'500'000u);
  BOOST_TEST((b0.substr(0, 1'000'000) == t.a0.substr(0, 1'000'000)));
  BOOST_TEST((b0.substr(1'000'000) == t.a1.substr(0, 1'500'000)));
  BOOST_TEST((b1.substr(0, 500'000) == t.a1.substr(1'500'000)));
  BOOST_TEST((b1.substr(500'000) == t.a0.substr(1'000'000)));
  const Json& report = done.at("report");
  BOOST_TEST(report.at("k").get<int>() == 2);  // ⌊40/20⌋
  BOOST_TEST(done.at("bytes_done").get<std::uint64_t>() == 5'000'000u);
  for (const Json& step : report.at("steps")) {
    BOOST_TEST(step.contains("measured_seconds"), step.dump());
    BOOST_TEST(step.at("flows").get<int>() <= 2);
  }
  // Paced at 20 MB/s a step takes its longest flow's bytes / 20 MB/s, less the pacer's
  // initial burst (10 ms of the rate, transport/pacer.h) and the model's 1 ms start-up.
  // Unpaced, loopback would move these 5 MB in a few milliseconds.
  const double floor =
      report.at("predicted_seconds").get<double>() - 0.011 * static_cast<double>(report.at("steps").size());
  BOOST_TEST(report.at("measured_seconds").get<double>() >= floor, done.dump());
  BOOST_TEST(floor > 0.1);
  const auto [status, jobs] = t.cluster.get("/v1/jobs");
  BOOST_TEST(status == 200);
  BOOST_TEST(jobs.at("jobs").size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_job_naming_unknown_nodes_is_refused_with_their_names) {
  TwoByTwo t;
  const Json job{{"senders", {"a0", "ghost"}},
                 {"receivers", {"b0"}},
                 {"platform", platform(50e6, 100e6)},
                 {"transfers", {transfer("a0", 0, 10, "b0", "out.bin", 0)}}};
  const auto [status, body] = t.cluster.post("/v1/jobs", job.dump());
  BOOST_TEST(status == 400);
  BOOST_TEST(body.at("error").get<std::string>().find("ghost") != std::string::npos, body.dump());
  const auto [bad_status, bad_body] = t.cluster.post("/v1/jobs", "{\"senders\": 3}");
  BOOST_TEST(bad_status == 400);
  BOOST_TEST(bad_body.at("error").get<std::string>().find("senders") != std::string::npos, bad_body.dump());
}

BOOST_AUTO_TEST_CASE(an_agent_with_the_wrong_secret_is_never_registered) {
  Cluster cluster;
  cluster.start_agent("good");
  cluster.start_agent("evil", "not-the-cluster-secret-at-all");
  BOOST_REQUIRE(cluster.wait_alive(1));
  // Until the impostor has tried and both ends said so (it keeps retrying): the daemons'
  // logs are files, where nothing signals a new line, so they are read every 10 ms, for at
  // most 10 s.
  const auto tried = [&] {
    return cluster.coordinator_log().find("(evil) failed authentication") != std::string::npos &&
           cluster.agent_log("evil").find("refused us: authentication failed") != std::string::npos;
  };
  for (int i = 0; i < 1000 && !tried(); ++i) std::this_thread::sleep_for(10ms);
  const auto [status, body] = cluster.get("/v1/agents");
  BOOST_REQUIRE(status == 200);
  BOOST_TEST(body.at("agents").size() == 1u, body.dump());
  BOOST_TEST(body.at("agents")[0].at("node").get<std::string>() == "good");
  // The agent proves first; the coordinator checks before it proves anything and refuses.
  // Both say so where an operator looks: a warning on the agent, an error naming the
  // peer's address on the coordinator, and `GET /v1/agents` (batonctl agents).
  BOOST_TEST(
      cluster.agent_log("evil").find("warning evil: coordinator refused our authentication: ") != std::string::npos,
      cluster.agent_log("evil"));
  BOOST_TEST(cluster.agent_log("evil").find("refused us: authentication failed") != std::string::npos,
             cluster.agent_log("evil"));
  BOOST_TEST(cluster.coordinator_log().find("error agent authentication failed: 127.0.0.1:") != std::string::npos,
             cluster.coordinator_log());
  BOOST_TEST(cluster.coordinator_log().find("(evil) failed authentication: wrong cluster secret") != std::string::npos,
             cluster.coordinator_log());
  BOOST_REQUIRE(body.at("refused").size() == 1u);
  const Json& refused = body.at("refused")[0];
  BOOST_TEST(refused.at("address").get<std::string>() == "127.0.0.1");
  BOOST_TEST(refused.at("node").get<std::string>() == "evil");
  BOOST_TEST(refused.at("reason").get<std::string>() == "wrong cluster secret");
  BOOST_TEST(refused.at("attempts").get<int>() >= 1);
  BOOST_TEST(cluster.coordinator_log().find("agent evil registered") == std::string::npos, cluster.coordinator_log());
}

BOOST_AUTO_TEST_CASE(a_plan_writing_outside_the_data_root_is_refused_by_the_agent) {
  TwoByTwo t;
  const Json job{{"senders", {"a0"}},
                 {"receivers", {"b0"}},
                 {"platform", platform(50e6, 100e6)},
                 {"transfers", {transfer("a0", 0, 1000, "b0", "../escaped.bin", 0)}}};
  const Json done = t.cluster.wait_job(submit(t.cluster, job));
  BOOST_TEST(done.value("state", "") == "failed");
  const std::string error = done.value("error", "");
  BOOST_TEST(error.find("agent b0 refused the plan") != std::string::npos, error);
  BOOST_TEST(!std::filesystem::exists(t.cluster.root("b0").parent_path() / "escaped.bin"));
}

BOOST_AUTO_TEST_CASE(a_plan_reading_past_a_source_file_is_refused) {
  TwoByTwo t;
  const Json job{{"senders", {"a1"}},
                 {"receivers", {"b1"}},
                 {"platform", platform(50e6, 100e6)},
                 {"transfers", {transfer("a1", 1'999'000, 5000, "b1", "out.bin", 0)}}};
  const Json done = t.cluster.wait_job(submit(t.cluster, job));
  BOOST_TEST(done.value("state", "") == "failed");
  BOOST_TEST(done.value("error", "").find("agent a1 refused the plan") != std::string::npos, done.dump());
  BOOST_TEST(!std::filesystem::exists(t.cluster.root("b1") / "out.bin"));
}

BOOST_AUTO_TEST_CASE(cancelling_mid_job_stops_it_and_reports_exactly_what_finished) {
  TwoByTwo t;
  // 2 MB/s per flow, k = 1: four 500 kB transfers take four steps of about 0.25 s each.
  const Json job{{"senders", {"a0", "a1"}},
                 {"receivers", {"b0", "b1"}},
                 {"platform", platform(2e6, 2e6)},
                 {"transfers",
                  {transfer("a0", 0, 500'000, "b0", "out.bin", 0), transfer("a0", 500'000, 500'000, "b1", "out.bin", 0),
                   transfer("a1", 0, 500'000, "b0", "out.bin", 500'000),
                   transfer("a1", 500'000, 500'000, "b1", "out.bin", 500'000)}}};
  const std::string id = submit(t.cluster, job);
  for (int i = 0; i < 200; ++i) {
    if (t.cluster.get("/v1/jobs/" + id).second.value("bytes_done", 0) > 0) break;
    std::this_thread::sleep_for(20ms);
  }
  const auto [status, answer] = t.cluster.post("/v1/jobs/" + id + "/cancel", "");
  BOOST_TEST(status == 200, answer.dump());
  const Json done = t.cluster.wait_job(id);
  BOOST_TEST(done.value("state", "") == "cancelled", done.dump());
  std::uint64_t finished_bytes = 0;
  std::size_t finished_steps = 0;
  for (const Json& step : done.at("report").at("steps")) {
    if (!step.contains("measured_seconds")) continue;
    ++finished_steps;
    finished_bytes += step.at("bytes").get<std::uint64_t>();
  }
  BOOST_TEST(finished_steps >= 1u, done.dump() << "\n" << t.cluster.coordinator_log());
  BOOST_TEST(finished_steps < done.at("report").at("steps").size());
  BOOST_TEST(done.at("bytes_done").get<std::uint64_t>() == finished_bytes);
  const auto [again, refused] = t.cluster.post("/v1/jobs/" + id + "/cancel", "");
  BOOST_TEST(again == 409);
}

// Four 500 kB transfers at 1 MB/s per flow, k = 1: four steps of about half a second.
Json slow_four_step_job() {
  return {{"senders", {"a0", "a1"}},
          {"receivers", {"b0", "b1"}},
          {"platform", platform(1e6, 1e6)},
          {"transfers",
           {transfer("a0", 0, 500'000, "b0", "out.bin", 0), transfer("a0", 500'000, 500'000, "b1", "out.bin", 0),
            transfer("a1", 0, 500'000, "b0", "out.bin", 500'000),
            transfer("a1", 500'000, 500'000, "b1", "out.bin", 500'000)}}};
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

BOOST_AUTO_TEST_CASE(a_job_survives_a_coordinator_crash_and_resumes_at_its_first_unfinished_step) {
  TwoByTwo t;
  const std::string id = submit(t.cluster, slow_four_step_job());
  for (int i = 0; i < 400; ++i) {
    if (t.cluster.get("/v1/jobs/" + id).second.value("bytes_done", 0) > 0) break;
    std::this_thread::sleep_for(10ms);
  }
  const Json before = t.cluster.get("/v1/jobs/" + id).second;
  BOOST_REQUIRE_MESSAGE(before.value("bytes_done", 0) > 0, before.dump());
  t.cluster.crash_and_restart_coordinator();

  const Json done = t.cluster.wait_job(id);
  BOOST_TEST(done.value("state", "") == "done", done.dump() << "\n" << t.cluster.coordinator_log());
  // The destination bytes are the sources', whatever step the crash interrupted.
  const std::string b0 = read_file(t.cluster.root("b0") / "out.bin");
  const std::string b1 = read_file(t.cluster.root("b1") / "out.bin");
  BOOST_TEST((b0 == t.a0.substr(0, 500'000) + t.a1.substr(0, 500'000)));
  BOOST_TEST((b1 == t.a0.substr(500'000, 500'000) + t.a1.substr(500'000, 500'000)));
  // Every step is reported, and the ones journaled before the crash were not run again:
  // each agent started step 0 exactly once.
  for (const Json& step : done.at("report").at("steps")) BOOST_TEST(step.contains("measured_seconds"), step.dump());
  BOOST_TEST(t.cluster.coordinator_log().find("job " + id + ": resuming at step ") != std::string::npos);
  BOOST_TEST(t.cluster.coordinator_log().find("resuming at step 0") == std::string::npos, t.cluster.coordinator_log());
  for (const char* node : {"a0", "a1", "b0", "b1"}) {
    BOOST_TEST(count(t.cluster.agent_log(node), "job " + id + " step 0: started") == 1u, t.cluster.agent_log(node));
  }
}

BOOST_AUTO_TEST_CASE(a_restarted_coordinator_knows_its_finished_jobs_with_their_reports) {
  TwoByTwo t;
  const Json job{{"senders", {"a0"}},
                 {"receivers", {"b0"}},
                 {"platform", platform(20e6, 20e6)},
                 {"transfers", {transfer("a0", 0, 1'000'000, "b0", "out.bin", 0)}}};
  const std::string id = submit(t.cluster, job);
  const Json done = t.cluster.wait_job(id);
  BOOST_REQUIRE_MESSAGE(done.value("state", "") == "done", done.dump());
  t.cluster.crash_and_restart_coordinator();

  // The journal's job is still there, done, with its report (docs/journal.md).
  const auto [status, again] = t.cluster.get("/v1/jobs/" + id);
  BOOST_TEST_REQUIRE(status == 200, again.dump());
  BOOST_TEST(again.at("state").get<std::string>() == "done");
  BOOST_TEST(again.at("bytes_done").get<std::uint64_t>() == 1'000'000u);
  BOOST_REQUIRE(again.contains("report"));
  BOOST_TEST(again.at("report").at("steps").size() == done.at("report").at("steps").size());
  BOOST_TEST(again.at("report").at("measured_seconds") == done.at("report").at("measured_seconds"));
  const auto [list_status, jobs] = t.cluster.get("/v1/jobs");
  BOOST_TEST(list_status == 200);
  BOOST_TEST_REQUIRE(jobs.at("jobs").size() == 1u, jobs.dump());
  BOOST_TEST(jobs.at("jobs")[0].at("id").get<std::string>() == id);
  BOOST_TEST(jobs.at("jobs")[0].at("state").get<std::string>() == "done");
  // The next job gets the next id, not the finished one's.
  BOOST_REQUIRE(t.cluster.wait_alive(4));
  const std::string next = submit(t.cluster, job);
  BOOST_TEST(std::stoull(next) == std::stoull(id) + 1);
}

BOOST_AUTO_TEST_CASE(an_agent_still_running_a_job_the_new_coordinator_never_had_is_released) {
  TwoByTwo t;
  const std::string id = submit(t.cluster, slow_four_step_job());
  for (int i = 0; i < 400; ++i) {
    if (t.cluster.get("/v1/jobs/" + id).second.value("bytes_done", 0) > 0) break;
    std::this_thread::sleep_for(10ms);
  }
  t.cluster.crash_and_restart_coordinator(/*forget_state=*/true);
  BOOST_REQUIRE(t.cluster.wait_alive(4));
  // The agents tell the new coordinator they hold job `id` running; it has no such job
  // and aborts it there, so they take new work.
  const std::string released = "job " + id + ": aborted by the coordinator: this coordinator has no job " + id;
  // Each agent is released when it registers again, and they come back at their own pace.
  for (const char* node : {"a0", "a1", "b0", "b1"}) {
    for (int i = 0; i < 1000 && count(t.cluster.agent_log(node), released) == 0; ++i) std::this_thread::sleep_for(10ms);
  }
  for (const char* node : {"a0", "a1", "b0", "b1"}) {
    BOOST_TEST(count(t.cluster.agent_log(node), released) == 1u, node << ":\n" << t.cluster.agent_log(node));
  }
  const Json job{{"senders", {"a0"}},
                 {"receivers", {"b1"}},
                 {"platform", platform(20e6, 20e6)},
                 {"transfers", {transfer("a0", 0, 100'000, "b1", "again.bin", 0)}}};
  const Json done = t.cluster.wait_job(submit(t.cluster, job));
  BOOST_TEST(done.value("state", "") == "done", done.dump() << "\n" << t.cluster.coordinator_log());
  BOOST_TEST((read_file(t.cluster.root("b1") / "again.bin") == t.a0.substr(0, 100'000)));
}

// An all-at-once step: every flow at once, unpaced. Each node's planned time is its bytes
// through its own link (β + bytes / d), not its longest flow, and none exceeds the step's
// prediction (which also counts the backbone).
BOOST_AUTO_TEST_CASE(an_all_at_once_job_plans_each_node_by_all_its_bytes) {
  TwoByTwo t;
  const Json done = run_two_flows_a_node(t, two_flows_a_node("all-at-once", platform(20e6, 40e6)));
  const Json& report = done.at("report");
  const double d = report.at("flow_rate").get<double>();
  BOOST_TEST_REQUIRE(report.at("steps").size() == 1u);
  const Json& step = report.at("steps").at(0);
  const std::map<std::string, double> bytes{{"a0", 1.5e6}, {"a1", 0.4e6}, {"b0", 1e6}, {"b1", 0.9e6}};
  for (const auto& [node, n] : bytes) {
    const double planned = step.at("nodes").at(node).at("planned_seconds").get<double>();
    BOOST_TEST(planned == 0.001 + n / d, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(planned <= step.at("predicted_seconds").get<double>() + 1e-9, node);
  }
}

// A fluid job on nodes of their own rates: a0 sends to both receivers at once, each flow
// paced at its share (docs/redistribution.md, "Nodes of their own rates"). The agents hold
// it to its plan's shared links, not to 1-port (they once refused every fluid plan, 3 send
// flows in a scheduled step); the report names T* beside the prediction.
BOOST_AUTO_TEST_CASE(a_fluid_job_on_nodes_of_their_own_rates_runs_several_paced_flows_of_a_node_at_once) {
  TwoByTwo t;
  Json platform_of_nodes = platform(20e6, 80e6);
  platform_of_nodes["sender_rates"] = {40e6, 10e6};
  platform_of_nodes["receiver_rates"] = {20e6, 30e6};
  const Json done = run_two_flows_a_node(t, two_flows_a_node("fluid", platform_of_nodes));
  const Json& report = done.at("report");
  BOOST_TEST(report.at("algorithm").get<std::string>() == "fluid");
  // T* = max(a0 1.5 MB / 40 MB/s, a1 0.4 / 10, b0 1.0 / 20, b1 0.9 / 30, 1.9 / 80) = 0.05 s.
  BOOST_TEST(report.at("bandwidth_bound_seconds").get<double>() == 0.05, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(report.at("steps").at(0).at("flows").get<int>() == 3);
}

// A node hangs during the job's only (so last) step: its sender gives up on it, the others
// finish. The retry must run on every agent, including those that had finished the step.
BOOST_AUTO_TEST_CASE(a_failed_last_step_is_retried_by_every_agent_including_those_that_finished_it) {
  Cluster cluster;
  const std::string a0 = write_random_file(cluster.root("a0") / "in.bin", 1'000'000, 3);
  // a1's flow is short: a1 and b1 finish the step before b0 is declared dead (which would
  // cancel their attempt), so the retry finds them done.
  const std::string a1 = write_random_file(cluster.root("a1") / "in.bin", 100'000, 4);
  cluster.start_agent("a0", {}, "flow_silence_seconds = 1\n");  // gives up on a silent peer after 1 s
  for (const char* node : {"a1", "b0", "b1"}) cluster.start_agent(node);
  BOOST_REQUIRE_MESSAGE(cluster.wait_alive(4), cluster.coordinator_log());
  // k = 2: one step of a 1 MB and a 100 kB flow at 1 MB/s each. OGGP, whose one matching
  // holds both flows (the default, oggp-plus, splits a0's flow over two steps here, and the
  // failed step would not be the last).
  const Json job{{"senders", {"a0", "a1"}},
                 {"receivers", {"b0", "b1"}},
                 {"algorithm", "oggp"},
                 {"platform", platform(1e6, 2e6)},
                 {"transfers",
                  {transfer("a0", 0, 1'000'000, "b0", "out.bin", 0), transfer("a1", 0, 100'000, "b1", "out.bin", 0)}}};
  const std::string id = submit(cluster, job);
  const std::string started = "job " + id + " step 0: started";
  for (int i = 0; i < 500 && count(cluster.agent_log("b0"), started) == 0; ++i) std::this_thread::sleep_for(10ms);
  BOOST_REQUIRE_MESSAGE(count(cluster.agent_log("b0"), started) == 1u, cluster.agent_log("b0"));
  cluster.pause_agent("b0");
  // Until a0 has given up on the silent b0 and the coordinator has failed the attempt (a
  // slow sanitizer build takes longer than the 2.5 s this once waited), at most 30 s.
  const std::string failed = "job " + id + " step 0: attempt 1 failed";
  for (int i = 0; i < 300 && cluster.coordinator_log().find(failed) == std::string::npos; ++i) {
    std::this_thread::sleep_for(100ms);
  }
  cluster.resume_agent("b0");

  const Json done = cluster.wait_job(id);
  BOOST_TEST(done.value("state", "") == "done", done.dump() << "\n" << cluster.coordinator_log());
  BOOST_TEST((read_file(cluster.root("b0") / "out.bin") == a0));
  BOOST_TEST((read_file(cluster.root("b1") / "out.bin") == a1));
  BOOST_TEST(done.at("report").at("steps").at(0).value("attempts", 0) >= 2, done.dump());
  BOOST_TEST(cluster.coordinator_log().find("job " + id + " step 0: attempt 1 failed") != std::string::npos,
             cluster.coordinator_log());
  // a1 and b1 finished the step in the first attempt, and ran it again.
  for (const char* node : {"a1", "b1"}) {
    BOOST_TEST(count(cluster.agent_log(node), "job " + id + " step 0: done") >= 2u, node << ":\n"
                                                                                         << cluster.agent_log(node));
  }
}

// An idle agent whose coordinator is gone stops promptly on SIGTERM (issue 27: about 2 s
// each, minutes for 128 stopped one after another): with nobody to flush messages to, it
// does not wait out the last second a connected agent gives its queued messages.
BOOST_AUTO_TEST_CASE(an_idle_agent_whose_coordinator_is_gone_stops_promptly) {
  Cluster cluster;
  cluster.start_agent("n0");
  BOOST_REQUIRE_MESSAGE(cluster.wait_alive(1), cluster.coordinator_log());
  ::kill(cluster.coordinator_pid(), SIGKILL);
  for (int i = 0; i < 500 && cluster.agent_log("n0").find("coordinator session:") == std::string::npos; ++i) {
    std::this_thread::sleep_for(20ms);  // polling its log: the agent's only account of the loss
  }
  BOOST_REQUIRE_MESSAGE(cluster.agent_log("n0").find("coordinator session:") != std::string::npos,
                        cluster.agent_log("n0"));
  const auto start = std::chrono::steady_clock::now();
  cluster.stop_agent("n0");
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BOOST_TEST(took < 0.9, took << " s\n" << cluster.agent_log("n0"));
  BOOST_TEST(cluster.agent_log("n0").find("stopped") != std::string::npos, cluster.agent_log("n0"));
}

// The same with its coordinator up: the agent hangs up once its last messages are written
// (Channel::finish) and stops. It took 1.15 s while it ran a fixed second after hanging up,
// and 0.2 s more while its accept loop looked every 200 ms whether to stop.
BOOST_AUTO_TEST_CASE(an_idle_registered_agent_stops_promptly) {
  Cluster cluster;
  cluster.start_agent("n0");
  BOOST_REQUIRE_MESSAGE(cluster.wait_alive(1), cluster.coordinator_log());
  const auto start = std::chrono::steady_clock::now();
  cluster.stop_agent("n0");
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BOOST_TEST(took < 0.9, took << " s\n" << cluster.agent_log("n0"));
  BOOST_TEST(cluster.agent_log("n0").find("stopped") != std::string::npos, cluster.agent_log("n0"));
}

BOOST_AUTO_TEST_SUITE_END()
