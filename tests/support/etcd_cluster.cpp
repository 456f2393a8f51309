#include "tests/support/etcd_cluster.h"

#include "tests/support/ports.h"
#include "tests/support/tools.h"

#include <httplib.h>
#include <signal.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <thread>

namespace baton::test {

EtcdCluster::EtcdCluster(int members, std::chrono::milliseconds timeout) {
  // A port found unused may be taken by another process before etcd binds it (suites run
  // side by side): a member that exits for "address already in use" starts the whole
  // cluster again on other ports, at most three times in all.
  for (int attempt = 1;; ++attempt) {
    members_.clear();
    initial_cluster_.clear();
    for (int i = 0; i < members; ++i) {
      Member m;
      m.name = "m" + std::to_string(i);
      m.client_url = "http://127.0.0.1:" + std::to_string(unused_loopback_port());
      m.peer_url = "http://127.0.0.1:" + std::to_string(unused_loopback_port());
      initial_cluster_ += (initial_cluster_.empty() ? "" : ",") + m.name + "=" + m.peer_url;
      members_.push_back(std::move(m));
    }
    for (Member& m : members_) launch(m, false);
    try {
      for (const Member& m : members_) wait_healthy(m, timeout, true);
      return;
    } catch (const std::runtime_error&) {
      const bool port_taken = std::ranges::any_of(members_, [](const Member& m) {
        return !m.process->running() && m.process->log().find("address already in use") != std::string::npos;
      });
      if (!port_taken || attempt == 3) throw;
      for (Member& m : members_) m.process->stop();
      std::filesystem::remove_all(dir_.path);  // the members' data of a cluster that never formed
      std::filesystem::create_directories(dir_.path);
    }
  }
}

EtcdCluster::~EtcdCluster() {
  for (Member& m : members_) {
    if (m.process) m.process->stop();
  }
}

void EtcdCluster::launch(Member& m, bool existing) {
  m.process = std::make_unique<Daemon>(
      std::vector<std::string>{tool_path("etcd"), "--name", m.name, "--data-dir", (dir_.path / m.name).string(),
                               "--listen-client-urls", m.client_url, "--advertise-client-urls", m.client_url,
                               "--listen-peer-urls", m.peer_url, "--initial-advertise-peer-urls", m.peer_url,
                               "--initial-cluster", initial_cluster_, "--initial-cluster-state",
                               existing ? "existing" : "new", "--initial-cluster-token", dir_.path.filename().string(),
                               // Loopback: elections in a fraction of a second, as a LAN's would be.
                               "--heartbeat-interval", "50", "--election-timeout", "500", "--log-outputs", "stderr"},
      (dir_.path / (m.name + ".log")).string());
}

void EtcdCluster::wait_healthy(const Member& m, std::chrono::milliseconds timeout, bool forming) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  // While the cluster forms, a member that exited leaves the others without their quorum.
  const auto alive = [&] {
    return forming ? std::ranges::all_of(members_, [](const Member& each) { return each.process->running(); })
                   : m.process->running();
  };
  while (std::chrono::steady_clock::now() < deadline && alive()) {
    httplib::Client client(m.client_url);
    client.set_connection_timeout(1, 0);
    client.set_read_timeout(1, 0);
    if (const auto answer = client.Get("/health");
        answer && answer->status == 200 && answer->body.find("\"health\":\"true\"") != std::string::npos) {
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  throw std::runtime_error("etcd member " + m.name + " at " + m.client_url + " did not become healthy:\n" +
                           m.process->log());
}

std::vector<std::string> EtcdCluster::endpoints() const {
  std::vector<std::string> out;
  for (const Member& m : members_) out.push_back(m.client_url);
  return out;
}

void EtcdCluster::kill(int member) {
  Member& m = members_.at(static_cast<std::size_t>(member));
  ::kill(m.process->pid(), SIGKILL);
  m.process->stop();  // reaps it
}

void EtcdCluster::freeze(int member) { ::kill(members_.at(static_cast<std::size_t>(member)).process->pid(), SIGSTOP); }

void EtcdCluster::restart(int member, std::chrono::milliseconds timeout) {
  Member& m = members_.at(static_cast<std::size_t>(member));
  launch(m, true);
  wait_healthy(m, timeout);
}

void EtcdCluster::restart_all(std::chrono::milliseconds timeout) {
  for (Member& m : members_) {
    if (!m.process || !m.process->running()) launch(m, true);
  }
  for (const Member& m : members_) wait_healthy(m, timeout);
}

// etcd's status answers {"header": {"member_id": ...}, "leader": ...}, both decimal strings.
int EtcdCluster::raft_leader() const {
  for (std::size_t i = 0; i < members_.size(); ++i) {
    httplib::Client client(members_[i].client_url);
    client.set_connection_timeout(1, 0);
    client.set_read_timeout(1, 0);
    const auto answer = client.Post("/v3/maintenance/status", "{}", "application/json");
    if (!answer || answer->status != 200) continue;
    const nlohmann::json status = nlohmann::json::parse(answer->body, nullptr, false);
    if (!status.is_object() || !status.contains("leader") || !status.contains("header")) continue;
    const std::string self = status.at("header").value("member_id", "");
    const std::string leader = status.value("leader", "");
    if (leader.empty() || leader == "0") continue;
    if (self == leader) return static_cast<int>(i);
    // Another member leads: ask the others who they are.
    for (std::size_t j = 0; j < members_.size(); ++j) {
      if (j == i) continue;
      httplib::Client other(members_[j].client_url);
      other.set_connection_timeout(1, 0);
      other.set_read_timeout(1, 0);
      const auto theirs = other.Post("/v3/maintenance/status", "{}", "application/json");
      if (!theirs || theirs->status != 200) continue;
      const nlohmann::json them = nlohmann::json::parse(theirs->body, nullptr, false);
      if (them.is_object() && them.contains("header") && them.at("header").value("member_id", "") == leader) {
        return static_cast<int>(j);
      }
    }
  }
  return -1;
}

std::string EtcdCluster::log(int member) const { return members_.at(static_cast<std::size_t>(member)).process->log(); }

}  // namespace baton::test
