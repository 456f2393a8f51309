// Every coordinator serves the API (docs/ha.md, "Agents and operators"), with real
// processes on loopback: an etcd member, two coordinators with one API token, a sender and
// a receiver that know both. The standby answers reads from the shared journal, the same
// job state the leader answers; it answers a write with 307 to the leader's API; batonctl
// given only the standby follows it and submits the job. Needs etcd on PATH (CMake's
// NEEDS: skipped, saying so, without it).
#include "tests/integration/api_polling.h"
#include "tests/integration/cluster.h"
#include "tests/support/etcd_cluster.h"
#include "tests/support/ports.h"
#include "tests/support/run_process.h"

#include <httplib.h>
#include <boost/test/unit_test.hpp>

#include <csignal>
#include <fstream>
#include <optional>
#include <thread>

using baton::test::Daemon;
using baton::test::EtcdCluster;
using baton::test::Json;
using baton::test::read_file;
using baton::test::write_random_file;
using namespace std::chrono_literals;

namespace {

constexpr const char* kToken = "ha-api-test-token";
constexpr std::uint64_t kBytes = 1'000'000;

void write_text(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

std::string address() { return "127.0.0.1:" + std::to_string(baton::test::unused_loopback_port()); }

struct Coordinator {
  std::string name, api, agents;
  std::unique_ptr<Daemon> process;
};

struct Pair {
  baton::test::TempDir dir{"baton-ha-api"};
  EtcdCluster etcd{1};
  Coordinator c1{"c1", address(), address(), nullptr};
  Coordinator c2{"c2", address(), address(), nullptr};
  std::vector<std::unique_ptr<Daemon>> agents;
  std::string source;

  Pair() {
    write_text(dir.path / "secret", "integration-test-secret-0123456789\n");
    write_text(dir.path / "token", std::string(kToken) + "\n");
    for (Coordinator* c : {&c1, &c2}) {
      write_text(dir.path / (c->name + ".toml"),
                 "id = \"" + c->name + "\"\nagent_address = \"" + c->agents + "\"\napi_address = \"" + c->api +
                     "\"\nsecret_file = \"secret\"\napi_token_file = \"token\"\nstate_dir = \"" + c->name +
                     "-state\"\nheartbeat_seconds = 0.2\njournal = \"etcd\"\netcd_endpoints = [\"" + etcd.endpoint(0) +
                     "\"]\netcd_prefix = \"/baton/ha-api-test/\"\nleader_ttl_seconds = 2\n");
    }
    start(c1);
    BOOST_REQUIRE_MESSAGE(wait_log(c1, "listening for agents", 30s), c1.process->log());
    start(c2);
    BOOST_REQUIRE_MESSAGE(wait_log(c2, "stands by with its API at http://" + c2.api, 30s), c2.process->log());
    source = write_random_file(dir.path / "a0" / "data" / "in.bin", kBytes, 31);
    for (const char* node : {"a0", "b0"}) start_agent(node);
  }

  ~Pair() {
    for (auto& agent : agents) agent->stop();
    for (Coordinator* c : {&c1, &c2}) {
      if (c->process) c->process->stop();
    }
  }

  void start(Coordinator& c) {
    c.process = std::make_unique<Daemon>(
        std::vector<std::string>{BATON_COORDINATOR_PATH, "--config", (dir.path / (c.name + ".toml")).string()},
        (dir.path / (c.name + ".log")).string());
  }

  void start_agent(const std::string& node) {
    const std::filesystem::path home = dir.path / node;
    std::filesystem::create_directories(home / "data");
    write_text(home / "agent.toml", "node_id = \"" + node + "\"\ncoordinator = [\"" + c1.agents + "\", \"" + c2.agents +
                                        "\"]\nsecret_file = \"../secret\"\ndata_root = \"data\"\n"
                                        "data_address = \"127.0.0.1:0\"\nrate = 100000000\nbuffer_count = 8\n"
                                        "buffer_size = 262144\n");
    agents.push_back(
        std::make_unique<Daemon>(std::vector<std::string>{BATON_AGENT_PATH, "--config", (home / "agent.toml").string()},
                                 (home / "agent.log").string()));
  }

  // The other processes are seen only by asking them: every 50 ms until they answer or `limit`.
  bool wait_log(const Coordinator& c, const std::string& line, std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      if (c.process->log().find(line) != std::string::npos) return true;
      std::this_thread::sleep_for(50ms);
    }
    return false;
  }

  static httplib::Client client(const Coordinator& c) {
    httplib::Client client("http://" + c.api);
    client.set_bearer_token_auth(kToken);
    return client;
  }

  static Json get(const Coordinator& c, const std::string& path) {
    const auto result = client(c).Get(path);
    if (!result) return Json{};
    return Json::parse(result->body, nullptr, false);
  }

  bool wait_alive(const Coordinator& c, std::size_t count, std::chrono::milliseconds limit) {
    return baton::test::wait_agents_alive([&](const std::string& path) { return get(c, path); }, count, limit);
  }

  Json wait_ended(const Coordinator& c, const std::string& id, std::chrono::milliseconds limit) {
    return baton::test::wait_job_ended([&](const std::string& path) { return get(c, path); }, id, limit);
  }
};

std::string job_json() {
  return Json{
      {"senders", {"a0"}},
      {"receivers", {"b0"}},
      {"platform", {{"sender_rate", 1e8}, {"receiver_rate", 1e8}, {"backbone_rate", 1e8}, {"step_startup", 0.001}}},
      {"transfers",
       {{{"src_node", "a0"},
         {"src_file", "in.bin"},
         {"src_offset", 0},
         {"length", kBytes},
         {"dst_node", "b0"},
         {"dst_file", "out.bin"},
         {"dst_offset", 0}}}}}
      .dump();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ha_api)

BOOST_AUTO_TEST_CASE(the_standby_answers_reads_from_the_journal_and_redirects_writes_to_the_leader) {
  Pair t;
  BOOST_REQUIRE_MESSAGE(t.wait_alive(t.c1, 2, 30s), t.c1.process->log());

  // A write to the standby: 307 to the same path on the leader, which it did not act on.
  auto standby = Pair::client(t.c2);
  const auto redirected = standby.Post("/v1/jobs", job_json(), "application/json");
  BOOST_REQUIRE(redirected);
  BOOST_TEST(redirected->status == 307, redirected->body);
  BOOST_TEST(redirected->get_header_value("Location") == "http://" + t.c1.api + "/v1/jobs");
  BOOST_TEST(Pair::get(t.c1, "/v1/jobs").at("jobs").empty());
  const auto cancel = standby.Post("/v1/jobs/1/cancel", "", "application/json");
  BOOST_REQUIRE(cancel);
  BOOST_TEST(cancel->status == 307);
  BOOST_TEST(cancel->get_header_value("Location") == "http://" + t.c1.api + "/v1/jobs/1/cancel");
  // Without the token the standby refuses, as the leader does.
  httplib::Client stranger("http://" + t.c2.api);
  const auto refused = stranger.Post("/v1/jobs", job_json(), "application/json");
  BOOST_REQUIRE(refused);
  BOOST_TEST(refused->status == 401);

  // Leadership and the journal's latency on /metrics: each coordinator says whether it
  // leads; the leader's writes to etcd are counted as a job goes by.
  const auto metric = [](const Coordinator& c, const std::string& name) -> std::optional<double> {
    const auto result = Pair::client(c).Get("/metrics");
    if (!result) return std::nullopt;
    const std::size_t at = result->body.find("\n" + name + " ");
    if (at == std::string::npos) return std::nullopt;
    return std::stod(result->body.substr(at + name.size() + 2));
  };
  BOOST_TEST(metric(t.c1, "baton_leader").value_or(-1) == 1.0);
  BOOST_TEST(metric(t.c2, "baton_leader").value_or(-1) == 0.0);
  const std::string writes = R"(baton_journal_write_seconds_count{store="etcd"})";
  const double writes_before = metric(t.c1, writes).value_or(0);

  // batonctl given only the standby: it follows the redirect and the leader takes the job.
  write_text(t.dir.path / "job.json", job_json());
  const auto submitted =
      baton::test::run_process({BATONCTL_PATH, "submit", (t.dir.path / "job.json").string(), "--coordinator",
                                "http://" + t.c2.api, "--token-file", (t.dir.path / "token").string()});
  BOOST_REQUIRE_MESSAGE(submitted.exit_code == 0, submitted.err);
  std::string id = submitted.out;
  while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
  BOOST_TEST_REQUIRE(!id.empty());

  const Json done = t.wait_ended(t.c1, id, 60s);
  BOOST_TEST_REQUIRE(done.value("state", "") == "done", done.dump() << "\n" << t.c1.process->log());
  BOOST_TEST((read_file(t.dir.path / "b0" / "data" / "out.bin") == t.source));

  // The standby answers the journal's view: the same job, in the same JSON.
  const Json on_standby = Pair::get(t.c2, "/v1/jobs/" + id);
  BOOST_TEST(on_standby.value("state", "") == "done", on_standby.dump());
  BOOST_TEST(on_standby == done, "standby: " << on_standby.dump() << "\nleader: " << done.dump());
  BOOST_TEST(Pair::get(t.c2, "/v1/jobs") == Pair::get(t.c1, "/v1/jobs"));
  BOOST_TEST(Pair::get(t.c2, "/v1/jobs/99").value("error", "") == "no job 99");
  // The job's record, its states, its step and its report: four writes at least.
  BOOST_TEST(metric(t.c1, writes).value_or(0) >= writes_before + 4);
  BOOST_TEST_MESSAGE("the leader's etcd writes: "
                     << metric(t.c1, writes).value_or(0) << ", "
                     << 1000 * metric(t.c1, R"(baton_journal_write_seconds_sum{store="etcd"})").value_or(0) /
                            metric(t.c1, writes).value_or(1)
                     << " ms each on average");
  BOOST_TEST(metric(t.c2, R"(baton_journal_read_seconds_count{store="etcd"})").value_or(0) >= 3);
  BOOST_TEST(!metric(t.c2, writes).has_value(), "a standby writes nothing");
  const auto page = standby.Get("/jobs/" + id);
  BOOST_REQUIRE(page);
  BOOST_TEST(page->status == 200);
  BOOST_TEST(page->body.find("standby") != std::string::npos);

  // batonctl status through the standby reads there; cancel is sent on and refused by the
  // leader with its own answer (the job already ended).
  const auto status = baton::test::run_process({BATONCTL_PATH, "status", id, "-o", "json", "--coordinator",
                                                "http://" + t.c2.api, "--token-file", (t.dir.path / "token").string()});
  BOOST_TEST(status.exit_code == 0, status.err);
  BOOST_TEST(status.out.find("\"done\"") != std::string::npos, status.out);
  const auto cancelled = baton::test::run_process({BATONCTL_PATH, "cancel", id, "--coordinator", "http://" + t.c2.api,
                                                   "--token-file", (t.dir.path / "token").string()});
  BOOST_TEST(cancelled.exit_code == 1);
  BOOST_TEST(cancelled.err.find("already done") != std::string::npos, cancelled.err);
}

// SIGHUP on a standby (systemctl reload) re-reads its API token, as on a leader.
BOOST_AUTO_TEST_CASE(a_standby_reloads_its_api_token_on_sighup) {
  Pair t;
  write_text(t.dir.path / "token", "a-new-api-token-for-the-standby\n");
  ::kill(t.c2.process->pid(), SIGHUP);
  BOOST_REQUIRE_MESSAGE(t.wait_log(t.c2, "SIGHUP: configuration re-read: API token set (standby)", 10s),
                        t.c2.process->log());
  const auto old_token = Pair::client(t.c2).Get("/v1/jobs");
  BOOST_REQUIRE(old_token);
  BOOST_TEST(old_token->status == 401);
  httplib::Client renewed("http://" + t.c2.api);
  renewed.set_bearer_token_auth("a-new-api-token-for-the-standby");
  const auto new_token = renewed.Get("/v1/jobs");
  BOOST_REQUIRE(new_token);
  BOOST_TEST(new_token->status == 200);
  BOOST_TEST(t.c2.process->running());
}

BOOST_AUTO_TEST_SUITE_END()
