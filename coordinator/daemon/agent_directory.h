// What the job driver needs of the agents: who is registered and alive, and a way to send
// each one a message. The daemon's AgentRegistry is one; the driver's unit test has a fake.
#pragma once

#include "protocol/baton.pb.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace baton::coordinator {

struct AgentInfo {
  std::string node;
  std::vector<std::string> addresses;  // data addresses
  std::vector<std::string> transports;
  double rate = 0;
  std::string storage_id;  // equal for agents that share a data root
  // Bytes of one array it folds per second, by (dtype, op), as it measured them at start
  // (Register.combine_speeds; docs/collectives.md).
  std::map<std::pair<protocol::DataType, protocol::ReduceOp>, double> combine_speeds;
  std::string peer;  // where its control connection comes from
  bool alive = false;
  std::chrono::steady_clock::time_point last_heard{};
};

class AgentDirectory {
 public:
  virtual ~AgentDirectory() = default;
  // Sends to a registered, live agent; false if it has no session.
  virtual bool send(const std::string& node, protocol::Envelope message) = 0;
  virtual std::vector<AgentInfo> agents() const = 0;
  virtual std::optional<AgentInfo> find(const std::string& node) const = 0;
  // Whether `node` is registered and its session open: a lookup, no copy (a job's waits
  // and its retries ask it of every node of the job).
  virtual bool alive(const std::string& node) const = 0;
  // How many times a registered agent's session has ended so far: a node turns dead only
  // when this grows (coordinator/daemon/dead_without_report.h).
  virtual std::uint64_t deaths() const = 0;
};

}  // namespace baton::coordinator
