// Self-paced steps (docs/runtime.md, "Self-paced steps") with real processes on loopback:
// a lockstep job runs its steps behind the agents' own barrier, released once; the papers'
// lockstep holds (checked from the agents' own step times: no node starts step s + 1
// before every node ended step s); every byte lands; each node's time at each step is in
// the job's report, as on the per-step path; the per-step path stays selectable.
#include "tests/integration/cluster.h"

#include <boost/test/unit_test.hpp>

#include <map>
#include <sstream>

using baton::test::Cluster;
using baton::test::Json;
using baton::test::read_file;
using baton::test::transfer;
using baton::test::write_random_file;
using namespace std::chrono_literals;

namespace {

// a0 sends 200 kB to each receiver twice, a1 20 kB: in every step a1's flow ends long
// before a0's, so without a barrier a1 would start the next step early. 4 steps at 1 MB/s.
constexpr std::uint64_t big = 200'000, small = 20'000;

Json uneven_job() {
  Json transfers = Json::array();
  for (std::uint64_t i = 0; i < 4; ++i) {
    transfers.push_back(transfer("a0", i * big, big, i % 2 ? "b1" : "b0", (i / 2) * big));
    transfers.push_back(transfer("a1", i * small, small, i % 2 ? "b1" : "b0", 2 * big + (i / 2) * small));
  }
  return {{"senders", {"a0", "a1"}},
          {"receivers", {"b0", "b1"}},
          {"platform", {{"sender_rate", 1e6}, {"receiver_rate", 1e6}, {"backbone_rate", 1e6}, {"step_startup", 0.001}}},
          {"transfers", transfers}};
}

struct Uneven {
  Cluster cluster;
  std::string a0, a1;
  explicit Uneven(std::string coordinator_config = {}) : cluster({}, std::move(coordinator_config)) {
    a0 = write_random_file(cluster.root("a0") / "in.bin", 4 * big, 21);
    a1 = write_random_file(cluster.root("a1") / "in.bin", 4 * small, 22);
    for (const char* node : {"a0", "a1", "b0", "b1"}) cluster.start_agent(node);
    BOOST_REQUIRE_MESSAGE(cluster.wait_alive(4), cluster.coordinator_log());
  }

  // What the job leaves on receiver b<r>, computed from the sources.
  std::string expected(int r) const {
    std::string out;
    for (int i = r; i < 4; i += 2) out += a0.substr(static_cast<std::size_t>(i) * big, big);
    for (int i = r; i < 4; i += 2) out += a1.substr(static_cast<std::size_t>(i) * small, small);
    return out;
  }

  std::string run_and_verify() {
    const auto [status, body] = cluster.post("/v1/jobs", uneven_job().dump());
    BOOST_REQUIRE_MESSAGE(status == 201, body.dump());
    const std::string id = body.at("id").get<std::string>();
    const Json done = cluster.wait_job(id);
    BOOST_TEST_REQUIRE(done.value("state", "") == "done", done.dump() << "\n" << cluster.coordinator_log());
    BOOST_TEST((read_file(cluster.root("b0") / "out.bin") == expected(0)));
    BOOST_TEST((read_file(cluster.root("b1") / "out.bin") == expected(1)));
    check_node_timings(done);
    return id;
  }

  // Every node of every step has its own time and bytes in the report, within the step's, on
  // either path, and the bytes are what the plan gave it; a0's 400 kB step (0) took longer
  // than a1's 40 kB one (2); and the steps follow each other in the report as they ran, one
  // after another.
  static void check_node_timings(const Json& job) {
    const Json& steps = job.at("report").at("steps");
    BOOST_TEST_REQUIRE(steps.size() == 4u, job.dump());
    double ended = -1;
    for (const Json& step : steps) {
      const double started = step.at("started_seconds").get<double>();
      BOOST_TEST(started >= ended - 1e-6, "step " << step.at("index") << " started at " << started
                                                  << " s, before the step before it ended, at " << ended << " s");
      ended = started + step.at("measured_seconds").get<double>();
      for (const auto& [node, line] : step.at("nodes").items()) {
        BOOST_TEST_REQUIRE(line.contains("seconds"), "step " << step.at("index") << " node " << node << ": " << line);
        BOOST_TEST(line.at("bytes") == line.at("planned_bytes"), "step " << step.at("index") << " node " << node);
        BOOST_TEST(line.at("seconds").get<double>() > 0.0, "step " << step.at("index") << " node " << node);
        // A node's time in a step lies within the step's (the first one too: a node may
        // hear the release before the range's first member does).
        BOOST_TEST(line.at("seconds").get<double>() <= step.at("measured_seconds").get<double>(),
                   "step " << step.at("index") << " node " << node << ": " << line << " in " << step.dump());
      }
    }
    const Json& a0 = steps.at(0).at("nodes").at("a0");
    const Json& a1 = steps.at(2).at("nodes").at("a1");
    BOOST_TEST_REQUIRE(a0.at("bytes").get<std::uint64_t>() == 2 * big);
    BOOST_TEST_REQUIRE(a1.at("bytes").get<std::uint64_t>() == 2 * small);
    BOOST_TEST(a1.at("seconds").get<double>() < a0.at("seconds").get<double>(), steps.dump());
  }
};

// When each step of job `id` started and ended on `node`, from its log ("<ISO time> info
// job <id> step <s>: started" and "...: done, ..."): ISO times, which compare as strings.
struct StepTimes {
  std::map<std::uint32_t, std::string> started, ended;
};

StepTimes step_times(const std::string& log, const std::string& id) {
  StepTimes times;
  std::istringstream lines(log);
  const std::string job = "job " + id + " step ";
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find(job);
    if (at == std::string::npos || line.size() < 23) continue;
    const std::string rest = line.substr(at + job.size());
    const std::uint32_t step = static_cast<std::uint32_t>(std::stoul(rest));
    const std::string time = line.substr(0, 23);  // 2026-12-06T14:33:36.123
    if (rest.find(": started") != std::string::npos) times.started[step] = time;
    else if (rest.find(": done") != std::string::npos) times.ended[step] = time;
  }
  return times;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(self_paced)

BOOST_AUTO_TEST_CASE(a_lockstep_job_runs_self_paced_by_default_keeps_the_lockstep_and_moves_every_byte) {
  Uneven t;
  const std::string id = t.run_and_verify();
  const std::string coordinator = t.cluster.coordinator_log();
  BOOST_TEST(coordinator.find("job " + id + " steps 0 to 3: released to 4 agents, self-paced") != std::string::npos,
             coordinator);
  BOOST_TEST(coordinator.find("job " + id + " step 1: released") == std::string::npos, coordinator);
  std::map<std::string, StepTimes> nodes;
  for (const char* node : {"a0", "a1", "b0", "b1"}) {
    nodes[node] = step_times(t.cluster.agent_log(node), id);
    BOOST_TEST_REQUIRE(nodes[node].started.size() == 4u, node << ":\n" << t.cluster.agent_log(node));
    BOOST_TEST_REQUIRE(nodes[node].ended.size() == 4u, node << ":\n" << t.cluster.agent_log(node));
  }
  // The papers' lockstep: every node ended step s before any node started step s + 1.
  for (std::uint32_t s = 0; s + 1 < 4; ++s) {
    for (const auto& [early, its] : nodes) {
      for (const auto& [late, theirs] : nodes) {
        BOOST_TEST(theirs.ended.at(s) <= its.started.at(s + 1),
                   early << " started step " << s + 1 << " at " << its.started.at(s + 1) << ", before " << late
                         << " ended step " << s << " at " << theirs.ended.at(s));
      }
    }
  }
  // The check bites: a1's step 0 ended well before a0's (its flows are a tenth as long,
  // or the plan gives it none in a0's long steps), so a1 had to wait for a0 in the barrier.
  BOOST_TEST(nodes["a1"].ended.at(0) < nodes["a0"].ended.at(0));
}

BOOST_AUTO_TEST_CASE(the_per_step_path_stays_selectable) {
  Uneven t("self_paced_steps = false\n");
  const std::string id = t.run_and_verify();
  const std::string coordinator = t.cluster.coordinator_log();
  BOOST_TEST(coordinator.find("self-paced") == std::string::npos, coordinator);
  BOOST_TEST(coordinator.find("job " + id + " step 3: released to 4 agents") != std::string::npos, coordinator);
}

BOOST_AUTO_TEST_SUITE_END()
