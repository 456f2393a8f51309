// The real daemons under a stand-in service manager: NOTIFY_SOCKET and WATCHDOG_USEC set
// as systemd sets them for a Type=notify unit, every message read from the socket.
#include "tests/integration/cluster.h"
#include "tests/support/etcd_cluster.h"
#include "tests/support/ports.h"
#include "tests/systemd/notify_socket.h"

#include <httplib.h>
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <thread>

using baton::test::Cluster;
using baton::test::Daemon;
using baton::test::has_line;
using baton::test::Json;
using baton::test::NotifySocket;
using baton::test::write_random_file;
using namespace std::chrono_literals;

namespace {

// Sets NOTIFY_SOCKET (and WATCHDOG_USEC) for the daemons started while it lives.
struct ManagedEnvironment {
  ManagedEnvironment(const NotifySocket& socket, const char* watchdog_usec) {
    ::setenv("NOTIFY_SOCKET", socket.path().c_str(), 1);
    ::setenv("WATCHDOG_USEC", watchdog_usec, 1);
  }
  ~ManagedEnvironment() {
    ::unsetenv("NOTIFY_SOCKET");
    ::unsetenv("WATCHDOG_USEC");
  }
};

std::string joined(const std::vector<std::string>& messages) {
  std::string all;
  for (const std::string& m : messages) all += "[" + m + "] ";
  return all;
}

// The STATUS= of a message, if it has one.
std::optional<std::string> status_of(const std::string& message) {
  const auto at = message.find("STATUS=");
  if (at == std::string::npos) return std::nullopt;
  return message.substr(at + 7, message.find('\n', at) - (at + 7));
}

// Waits for a daemon that was told to stop to exit by itself; its exit status.
int exit_status(Daemon& daemon) {
  daemon.wait_exit(std::chrono::seconds(10));
  return daemon.stop();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(daemons_under_systemd)

BOOST_AUTO_TEST_CASE(the_agent_is_ready_once_registered_pings_the_watchdog_and_reports_its_job_steps) {
  Cluster cluster;
  NotifySocket socket;
  const std::string data = write_random_file(cluster.root("a0") / "in.bin", 1'000'000, 3);
  {
    ManagedEnvironment managed(socket, "1000000");  // WatchdogSec=1s
    cluster.start_agent("a0");
  }
  cluster.start_agent("b0");
  const auto ready = socket.until("READY=1", 15s);
  BOOST_REQUIRE_MESSAGE(ready, cluster.agent_log("a0"));
  BOOST_TEST(cluster.agent_log("a0").find("registered with coordinator") != std::string::npos,
             "READY=1 came before the agent registered:\n"
                 << cluster.agent_log("a0"));
  BOOST_TEST(status_of(ready->back()).value_or("") == "idle", joined(*ready));
  BOOST_TEST(socket.until("WATCHDOG=1", 2s).has_value());
  BOOST_REQUIRE(cluster.wait_alive(2));

  // Four 250 kB pieces at 1 MB/s, k = 1: a few steps the STATUS lines must follow.
  Json transfers = Json::array();
  for (int i = 0; i < 4; ++i) {
    transfers.push_back({{"src_node", "a0"},
                         {"src_file", "in.bin"},
                         {"src_offset", i * 250'000},
                         {"length", 250'000},
                         {"dst_node", "b0"},
                         {"dst_file", "out.bin"},
                         {"dst_offset", i * 250'000}});
  }
  const Json job{
      {"senders", {"a0"}},
      {"receivers", {"b0"}},
      {"transfers", transfers},
      {"platform", {{"sender_rate", 1e6}, {"receiver_rate", 1e6}, {"backbone_rate", 1e6}, {"step_startup", 0.001}}}};
  const auto [code, body] = cluster.post("/v1/jobs", job.dump());
  BOOST_REQUIRE_MESSAGE(code == 201, body.dump());
  const std::string id = body.at("id").get<std::string>();
  BOOST_TEST(cluster.wait_job(id).value("state", "") == "done");
  std::vector<std::string> statuses;
  while (const auto message = socket.receive(300ms)) {
    if (const auto status = status_of(*message)) statuses.push_back(*status);
  }
  const auto saw = [&](const std::string& text) {
    return std::ranges::any_of(statuses, [&](const std::string& s) { return s.find(text) != std::string::npos; });
  };
  BOOST_TEST(saw("job " + id + " step 1/"), joined(statuses));
  BOOST_TEST(saw("job " + id + " done"), joined(statuses));

  cluster.stop_agent("a0");
  const auto stopping = socket.until("STOPPING=1", 5s);
  BOOST_TEST(stopping.has_value());
}

BOOST_AUTO_TEST_CASE(an_agent_without_its_coordinator_never_says_ready_and_still_stops_cleanly) {
  Cluster cluster;
  NotifySocket socket;
  std::filesystem::create_directories(cluster.dir() / "lonely" / "data");
  std::ofstream(cluster.dir() / "lonely" / "agent.toml")
      << "node_id = \"lonely\"\ncoordinator = \"127.0.0.1:" << baton::test::unused_loopback_port()
      << "\"\nsecret_file = \"../secret\"\ndata_root = \"data\"\n";
  std::unique_ptr<Daemon> agent;
  {
    ManagedEnvironment managed(socket, "600000");
    agent = std::make_unique<Daemon>(
        std::vector<std::string>{BATON_AGENT_PATH, "--config", (cluster.dir() / "lonely" / "agent.toml").string()},
        (cluster.dir() / "lonely" / "agent.log").string());
  }
  std::vector<std::string> before;
  const auto until = std::chrono::steady_clock::now() + 1500ms;
  while (std::chrono::steady_clock::now() < until) {
    if (const auto message = socket.receive(100ms)) before.push_back(*message);
  }
  BOOST_TEST(std::ranges::none_of(before, [](const std::string& m) { return has_line(m, "READY=1"); }), joined(before));
  BOOST_TEST(std::ranges::any_of(before, [](const std::string& m) { return m == "WATCHDOG=1"; }),
             "the event loop runs, so the watchdog is fed: " << joined(before));
  ::kill(agent->pid(), SIGTERM);
  BOOST_TEST(socket.until("STOPPING=1", 5s).has_value());
  BOOST_TEST(exit_status(*agent) == 0, agent->log());
}

BOOST_AUTO_TEST_CASE(the_coordinator_is_ready_once_listening_reloads_on_sighup_and_says_stopping) {
  NotifySocket socket;
  Cluster cluster;  // for its directory and secret; a second coordinator runs beside its own
  const std::filesystem::path config = cluster.dir() / "managed.toml", ready_file = cluster.dir() / "managed.json";
  std::ofstream(config) << "id = \"managed\"\nagent_address = \"127.0.0.1:0\"\napi_address = \"127.0.0.1:0\"\n"
                           "secret_file = \"secret\"\nstate_dir = \"managed-state\"\n";
  std::unique_ptr<Daemon> coordinator;
  {
    ManagedEnvironment managed(socket, "1000000");
    coordinator = std::make_unique<Daemon>(std::vector<std::string>{BATON_COORDINATOR_PATH, "--config", config.string(),
                                                                    "--ready-file", ready_file.string()},
                                           (cluster.dir() / "managed.log").string());
  }
  const auto ready = socket.until("READY=1", 10s);
  BOOST_REQUIRE_MESSAGE(ready, coordinator->log());
  BOOST_TEST(status_of(ready->back()).value_or("").starts_with("idle"), joined(*ready));
  BOOST_TEST(socket.until("WATCHDOG=1", 2s).has_value());
  httplib::Client api(Json::parse(baton::test::read_file(ready_file)).at("api").get<std::string>());
  const auto before = api.Get("/v1/agents");
  BOOST_REQUIRE(before);
  BOOST_TEST(before->status == 200);

  // SIGHUP with a changed log level and a new API token: RELOADING=1, then READY=1 again;
  // the token applies at once and the log says what was applied.
  std::ofstream(cluster.dir() / "managed-token") << "a-token-set-by-reload\n";
  std::ofstream(config, std::ios::app) << "log_level = \"debug\"\napi_token_file = \"managed-token\"\n";
  ::kill(coordinator->pid(), SIGHUP);
  BOOST_REQUIRE(socket.until("RELOADING=1", 5s));
  BOOST_TEST(socket.until("READY=1", 5s).has_value());
  const std::string applied = "SIGHUP: configuration re-read: log_level debug, API token set";
  BOOST_TEST(coordinator->log().find(applied) != std::string::npos, coordinator->log());
  const auto without = api.Get("/v1/agents");
  BOOST_REQUIRE(without);
  BOOST_TEST(without->status == 401);
  const auto with = api.Get("/v1/agents", {{"Authorization", "Bearer a-token-set-by-reload"}});
  BOOST_REQUIRE(with);
  BOOST_TEST(with->status == 200);

  // A file that no longer parses is refused; the running configuration stays.
  std::ofstream(config, std::ios::app) << "no_such_key = 1\n";
  ::kill(coordinator->pid(), SIGHUP);
  BOOST_TEST(socket.until("READY=1", 5s).has_value());
  BOOST_TEST(coordinator->log().find("SIGHUP: keeping the running configuration") != std::string::npos);
  const auto still = api.Get("/v1/agents");
  BOOST_REQUIRE(still);
  BOOST_TEST(still->status == 401);

  ::kill(coordinator->pid(), SIGTERM);
  BOOST_TEST(socket.until("STOPPING=1", 5s).has_value());
  BOOST_TEST(exit_status(*coordinator) == 0, coordinator->log());
}

// A standby on etcd (docs/ha.md) campaigns before it serves: it is still a started service,
// READY=1 with a STATUS saying it stands by and the watchdog's pings while it waits, then
// READY=1 again when it leads (here: the leader stops cleanly and resigns). Labelled etcd:
// CTest's test_systemd_daemons_etcd runs it where etcd is on PATH.
BOOST_AUTO_TEST_CASE(a_standby_coordinator_is_ready_and_pings_the_watchdog_while_it_waits_then_leads,
                     *boost::unit_test::label("etcd")) {
  baton::test::EtcdCluster etcd;
  NotifySocket socket;
  Cluster cluster;  // for its directory and secret
  std::unique_ptr<Daemon> coordinators[2];
  for (int i = 0; i < 2; ++i) {
    const std::string name = "ha" + std::to_string(i);
    const std::filesystem::path config = cluster.dir() / (name + ".toml");
    std::ofstream(config) << "id = \"" << name
                          << "\"\nagent_address = \"127.0.0.1:0\"\napi_address = \"127.0.0.1:0\"\n"
                             "secret_file = \"secret\"\nstate_dir = \""
                          << name << "-state\"\njournal = \"etcd\"\netcd_endpoints = [\"" << etcd.endpoint(0)
                          << "\"]\netcd_prefix = \"/baton/sd/\"\nleader_ttl_seconds = 2\n";
    std::vector<std::string> argv{BATON_COORDINATOR_PATH, "--config", config.string(), "--ready-file",
                                  (cluster.dir() / (name + ".json")).string()};
    if (i == 0) {
      coordinators[i] = std::make_unique<Daemon>(argv, (cluster.dir() / (name + ".log")).string());
      for (int t = 0; t < 200 && baton::test::read_file(cluster.dir() / "ha0.json").empty(); ++t)
        std::this_thread::sleep_for(50ms);
      BOOST_REQUIRE_MESSAGE(!baton::test::read_file(cluster.dir() / "ha0.json").empty(), coordinators[0]->log());
    } else {
      ManagedEnvironment managed(socket, "1000000");
      coordinators[i] = std::make_unique<Daemon>(argv, (cluster.dir() / (name + ".log")).string());
    }
  }
  const auto standing_by = socket.until("READY=1", 10s);
  BOOST_REQUIRE_MESSAGE(standing_by, coordinators[1]->log());
  BOOST_TEST(status_of(standing_by->back()).value_or("") == "standby: campaigning for /baton/sd/leader",
             joined(*standing_by));
  for (int ping = 0; ping < 3; ++ping) BOOST_TEST(socket.until("WATCHDOG=1", 2s).has_value());  // 3 s: past 1 s
  BOOST_TEST(baton::test::read_file(cluster.dir() / "ha1.json").empty());                       // not serving

  ::kill(coordinators[0]->pid(), SIGTERM);
  BOOST_TEST(exit_status(*coordinators[0]) == 0, coordinators[0]->log());
  const auto leading = socket.until("READY=1", 10s);
  BOOST_REQUIRE_MESSAGE(leading, coordinators[1]->log());
  BOOST_TEST(status_of(leading->back()).value_or("").starts_with("idle"), joined(*leading));
  BOOST_TEST(!baton::test::read_file(cluster.dir() / "ha1.json").empty());
  ::kill(coordinators[1]->pid(), SIGTERM);
  BOOST_TEST(socket.until("STOPPING=1", 5s).has_value());
  BOOST_TEST(exit_status(*coordinators[1]) == 0, coordinators[1]->log());
}

BOOST_AUTO_TEST_SUITE_END()
