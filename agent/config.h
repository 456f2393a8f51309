// baton-agent's configuration file (TOML; systemd/agent.toml is the example).
#pragma once

#include "transport/open.h"

#include <filesystem>
#include <string>
#include <vector>

namespace baton::agent {

struct AgentConfig {
  std::string node_id;
  std::string coordinator;  // "host:port" of the coordinator's agent listener
  // With standby coordinators (docs/ha.md): the others' agent listeners, tried in turn
  // after `coordinator` (the key `coordinator` is then a list); whichever leads answers.
  std::vector<std::string> other_coordinators;
  std::string secret;                        // read from secret_file
  std::filesystem::path data_root;           // the only place plans may read and write
  std::string data_address = "127.0.0.1:0";  // where peers connect for data (port 0: any)
  double rate = 0;                           // bytes/s, told to the coordinator
  transport::TransportConfig transport{};    // kind, provider, pool
  std::string log_level = "info";            // "info" or "debug"; re-read on SIGHUP
  std::string metrics_address;               // "host:port" of GET /metrics; empty: none
  std::size_t max_jobs = 16;                 // jobs' plans held at once (AgentOptions::max_jobs)
};

// Reads the file; throws error::InvalidInput naming the file and the key for anything
// missing, mistyped or unknown. Relative paths are relative to the file.
AgentConfig load_agent_config(const std::filesystem::path& path);

}  // namespace baton::agent
