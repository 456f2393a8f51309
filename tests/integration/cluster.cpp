#include "tests/integration/cluster.h"

#include <httplib.h>

#include <csignal>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace baton::test {
namespace {

void write_text(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

std::string write_random_file(const std::filesystem::path& path, std::size_t bytes, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::string data(bytes, '\0');
  for (char& c : data) c = static_cast<char>(rng());
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << data;
  return data;
}

Cluster::Cluster(std::string api_token, std::string coordinator_config)
    : api_token_(std::move(api_token)), coordinator_config_(std::move(coordinator_config)) {
  secret_ = "integration-test-secret-0123456789";
  write_text(dir_.path / "secret", secret_ + "\n");
  if (!api_token_.empty()) write_text(dir_.path / "token", api_token_ + "\n");
  write_coordinator_config("127.0.0.1:0", "127.0.0.1:0");
  start_coordinator();
}

void Cluster::write_coordinator_config(const std::string& api, const std::string& agents) {
  write_text(dir_.path / "coordinator.toml",
             "id = \"coord\"\nagent_address = \"" + agents + "\"\napi_address = \"" + api +
                 "\"\nsecret_file = \"secret\"\nstate_dir = \"state\"\n"
                 "heartbeat_seconds = 0.2\n" +
                 (api_token_.empty() ? "" : "api_token_file = \"token\"\n") + coordinator_config_);
}

void Cluster::start_coordinator() {
  std::filesystem::remove(dir_.path / "ready.json");
  coordinator_ = std::make_unique<Daemon>(
      std::vector<std::string>{BATON_COORDINATOR_PATH, "--config", (dir_.path / "coordinator.toml").string(),
                               "--ready-file", (dir_.path / "ready.json").string()},
      (dir_.path / "coordinator.log").string());
  for (int i = 0; i < 200 && read_file(dir_.path / "ready.json").empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const std::string ready = read_file(dir_.path / "ready.json");
  if (ready.empty()) throw std::runtime_error("the coordinator did not start: " + coordinator_->log());
  const Json addresses = Json::parse(ready);
  api_ = addresses.at("api").get<std::string>();
  agents_address_ = addresses.at("agents").get<std::string>();
}

void Cluster::crash_and_restart_coordinator(bool forget_state, std::chrono::milliseconds down) {
  ::kill(coordinator_->pid(), SIGKILL);
  coordinator_->stop();
  std::this_thread::sleep_for(down);  // the fault itself: how long it stays down
  if (forget_state) std::filesystem::remove_all(dir_.path / "state");
  // The same addresses, so the agents' configuration still leads here.
  write_coordinator_config(api_, agents_address_);
  const std::string agents_before = agents_address_, api_before = api_;
  start_coordinator();
  if (agents_address_ != agents_before || api_ != api_before) {
    throw std::runtime_error("the restarted coordinator moved to other addresses");
  }
}

Cluster::~Cluster() {
  for (auto& [node, agent] : agents_) agent->stop();
  coordinator_->stop();
}

void Cluster::start_agent(const std::string& node, const std::string& secret, const std::string& extra_config,
                          std::uint64_t rate) {
  const std::filesystem::path home = dir_.path / node;
  std::filesystem::create_directories(home / "data");
  std::string secret_file = "../secret";
  if (!secret.empty()) {
    write_text(home / "secret", secret + "\n");
    secret_file = "secret";
  }
  write_text(home / "agent.toml",
             "node_id = \"" + node + "\"\ncoordinator = \"" + agents_address_ + "\"\nsecret_file = \"" + secret_file +
                 "\"\ndata_root = \"data\"\ndata_address = \"127.0.0.1:0\"\n"
                 "rate = " +
                 std::to_string(rate) + "\nbuffer_count = 8\nbuffer_size = 262144\n" + extra_config);
  agents_.emplace_back(node, launch_agent(node));
}

std::unique_ptr<Daemon> Cluster::launch_agent(const std::string& node) const {
  const std::filesystem::path home = dir_.path / node;
  return std::make_unique<Daemon>(
      std::vector<std::string>{BATON_AGENT_PATH, "--config", (home / "agent.toml").string()},
      (home / "agent.log").string());
}

void Cluster::crash_and_restart_agent(const std::string& node, std::chrono::milliseconds down) {
  for (auto& [name, agent] : agents_) {
    if (name != node) continue;
    ::kill(agent->pid(), SIGKILL);
    agent->stop();                      // reaps it
    std::this_thread::sleep_for(down);  // the fault itself: how long it stays down
    agent = launch_agent(node);
  }
}

void Cluster::stop_agent(const std::string& node) {
  for (auto& [name, agent] : agents_) {
    if (name == node) agent->stop();
  }
}

void Cluster::signal_agent(const std::string& node, int signal) {
  for (auto& [name, agent] : agents_) {
    if (name == node) ::kill(agent->pid(), signal);
  }
}

void Cluster::pause_agent(const std::string& node) { signal_agent(node, SIGSTOP); }

void Cluster::resume_agent(const std::string& node) { signal_agent(node, SIGCONT); }

std::string Cluster::agent_log(const std::string& node) const {
  for (const auto& [name, agent] : agents_) {
    if (name == node) return agent->log();
  }
  return {};
}

namespace {

// The answer as (status, body), or (0, {"error": why none came}).
std::pair<int, Json> answer_of(const httplib::Result& result) {
  if (!result) return {0, Json{{"error", "no answer: " + httplib::to_string(result.error())}}};
  return {result->status, Json::parse(result->body, nullptr, false)};
}

httplib::Client api_client(const std::string& api, const std::string& token) {
  httplib::Client client("http://" + api);
  if (!token.empty()) client.set_bearer_token_auth(token);
  // httplib's 5 s is short for a submit that waits for the agents' answers about its
  // objects when ASan agents share two cores with other suites (a POST of a collective
  // went unanswered so in CI); the suites test what the answer says, not how fast it came.
  client.set_read_timeout(std::chrono::seconds(30));
  return client;
}

}  // namespace

std::pair<int, Json> Cluster::get(const std::string& path) { return answer_of(api_client(api_, api_token_).Get(path)); }

std::pair<int, Json> Cluster::post(const std::string& path, const std::string& body) {
  return answer_of(api_client(api_, api_token_).Post(path, body, "application/json"));
}

std::pair<int, Json> Cluster::remove(const std::string& path) {
  return answer_of(api_client(api_, api_token_).Delete(path));
}

bool Cluster::wait_alive(std::size_t count, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    const auto [status, body] = get("/v1/agents");
    if (status == 200) {
      std::size_t alive = 0;
      for (const Json& a : body.at("agents")) alive += a.at("alive").get<bool>() ? 1 : 0;
      if (alive >= count) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

Json Cluster::wait_job(const std::string& id, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  Json job;
  while (std::chrono::steady_clock::now() < deadline) {
    job = get("/v1/jobs/" + id).second;
    const std::string state = job.value("state", "");
    if (state == "done" || state == "failed" || state == "cancelled") return job;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return job;
}

Json transfer(const std::string& src, std::uint64_t src_offset, std::uint64_t length, const std::string& dst,
              std::uint64_t dst_offset) {
  return {{"src_node", src}, {"src_file", "in.bin"},  {"src_offset", src_offset}, {"length", length},
          {"dst_node", dst}, {"dst_file", "out.bin"}, {"dst_offset", dst_offset}};
}

}  // namespace baton::test
