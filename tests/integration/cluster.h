// A whole Baton installation in a temporary directory for one test: a coordinator and
// agents as real processes on loopback, each with its own configuration and data root,
// reached through the coordinator's HTTP API (not through batonctl: an independent client).
// What another process does is seen only by asking it (its API, its ready file, its log):
// the waits here ask every 50 ms until the answer comes or their limit passes, and the
// limits are generous (a sanitizer build on a loaded machine is slow), never measured.
#pragma once

#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace baton::test {

using Json = nlohmann::json;

class Cluster {
 public:
  // `api_token` non-empty: the coordinator's API requires it (get() and post() send it).
  // `coordinator_config` lines go into its coordinator.toml.
  explicit Cluster(std::string api_token = {}, std::string coordinator_config = {});
  ~Cluster();

  // Starts an agent named `node` (its data root is root(node)); `secret` overrides the
  // cluster's (a wrong one must be refused); `extra_config` lines go into its agent.toml;
  // `rate` is the link rate it declares (bytes/s), which paces its flows.
  void start_agent(const std::string& node, const std::string& secret = {}, const std::string& extra_config = {},
                   std::uint64_t rate = 100'000'000);
  void stop_agent(const std::string& node);
  // Kills the agent with SIGKILL (a crash: nothing flushed, nothing said to anyone) and,
  // `down` later, starts it again from its configuration: a new process that remembers
  // nothing but its data root.
  void crash_and_restart_agent(const std::string& node, std::chrono::milliseconds down);
  // SIGSTOP / SIGCONT: a node that hangs for a while (its peers and the coordinator see
  // silence) and then goes on where it was.
  void pause_agent(const std::string& node);
  void resume_agent(const std::string& node);
  // Sends `signal` to the agent's process.
  void signal_agent(const std::string& node, int signal);
  // Kills the coordinator with SIGKILL (a crash: nothing flushed, nothing said to the
  // agents) and, `down` later, starts a new one on the same addresses, with the same state
  // directory or, when `forget_state`, an empty one (a lost disk).
  void crash_and_restart_coordinator(bool forget_state = false, std::chrono::milliseconds down = {});
  // Waits until `count` agents are alive in GET /v1/agents; false after `timeout`.
  bool wait_alive(std::size_t count, std::chrono::milliseconds timeout = std::chrono::seconds(20));

  std::filesystem::path root(const std::string& node) const { return dir_.path / node / "data"; }
  std::filesystem::path dir() const { return dir_.path; }

  // HTTP: status code and parsed body.
  std::pair<int, Json> get(const std::string& path);
  std::pair<int, Json> post(const std::string& path, const std::string& body);
  std::pair<int, Json> remove(const std::string& path);  // DELETE
  // Polls the job until it is done, failed or cancelled (or `timeout`); returns its JSON.
  Json wait_job(const std::string& id, std::chrono::milliseconds timeout = std::chrono::seconds(120));

  std::string coordinator_log() const { return coordinator_->log(); }
  pid_t coordinator_pid() const { return coordinator_->pid(); }
  std::string api_address() const { return api_; }
  std::string agents_address() const { return agents_address_; }
  std::string secret() const { return secret_; }
  std::string agent_log(const std::string& node) const;

 private:
  TempDir dir_{"baton-it"};
  std::string secret_;
  std::string api_;
  std::string agents_address_;
  std::string api_token_;
  std::string coordinator_config_;
  // Writes coordinator.toml for the API and agent addresses (port 0 at first).
  void write_coordinator_config(const std::string& api, const std::string& agents);
  void start_coordinator();
  std::unique_ptr<Daemon> launch_agent(const std::string& node) const;

  std::unique_ptr<Daemon> coordinator_;
  std::vector<std::pair<std::string, std::unique_ptr<Daemon>>> agents_;
};

// Writes `bytes` pseudo-random bytes (seeded) to `path`, returns them.
std::string write_random_file(const std::filesystem::path& path, std::size_t bytes, unsigned seed);
std::string read_file(const std::filesystem::path& path);
// One transfer of a job: `length` bytes of src's in.bin at `src_offset` to dst's out.bin
// at `dst_offset`.
Json transfer(const std::string& src, std::uint64_t src_offset, std::uint64_t length, const std::string& dst,
              std::uint64_t dst_offset);

}  // namespace baton::test
