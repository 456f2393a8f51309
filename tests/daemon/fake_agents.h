// A fake agent directory for the daemon's unit tests: registered nodes (each with a data
// address, a disk of its own, a rate and combine speeds), liveness set by hand, and every
// message the code under test sends kept in order.
#pragma once

#include "coordinator/daemon/agent_directory.h"
#include "coordinator/daemon/driver_options.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace baton::test {

namespace bc = baton::coordinator;
namespace bp = baton::protocol;

// The driver's options for fake agents: they answer step by step (a release, a report),
// not the self-paced ranges the agents run by default (docs/runtime.md, "Self-paced steps").
inline bc::DriverOptions per_step_options() {
  bc::DriverOptions options;
  options.self_paced_steps = false;
  return options;
}

class FakeAgents final : public bc::AgentDirectory {
 public:
  explicit FakeAgents(const std::vector<std::string>& nodes) {
    for (const std::string& n : nodes) add(n);
  }
  // A node registered as an agent of protocol 3: its data address, own disk, rate and
  // combine speeds.
  bc::AgentInfo& add(const std::string& n, double rate = 1e6) {
    bc::AgentInfo& info = agents_[n];
    info.node = n;
    info.addresses = {n + ":9000"};
    info.storage_id = "disk-" + n;
    info.alive = true;
    info.rate = rate;
    info.combine_speeds[{bp::F32, bp::SUM}] = 5e7;
    return info;
  }
  bool send(const std::string& node, bp::Envelope message) override {
    if (!agents_.at(node).alive) return false;
    sent.emplace_back(node, std::move(message));
    return true;
  }
  std::vector<bc::AgentInfo> agents() const override {
    std::vector<bc::AgentInfo> out;
    for (const auto& [n, info] : agents_) out.push_back(info);
    return out;
  }
  std::optional<bc::AgentInfo> find(const std::string& node) const override {
    const auto it = agents_.find(node);
    if (it == agents_.end()) return std::nullopt;
    return it->second;
  }
  bool alive(const std::string& node) const override {
    const auto it = agents_.find(node);
    return it != agents_.end() && it->second.alive;
  }
  std::uint64_t deaths() const override { return deaths_; }
  void set_alive(const std::string& node, bool alive) {
    if (agents_.at(node).alive && !alive) ++deaths_;
    agents_.at(node).alive = alive;
  }

  // What the driver sent, in order; taken by the test as it reads it.
  std::vector<std::pair<std::string, bp::Envelope>> sent;

 private:
  std::map<std::string, bc::AgentInfo> agents_;
  std::uint64_t deaths_ = 0;
};

}  // namespace baton::test
