// "Is a node of the attempt dead without its report?", which a step's or a range's wait
// asks each time it wakes. A node turns dead only when the agent directory counts a death,
// so once no such node is found the answer stays no until the count grows: the N reports
// of a range's end wake the wait N times at the cost of N lookups, not N² (docs/runtime.md,
// "Where the rest goes").
#pragma once

#include "coordinator/daemon/agent_directory.h"
#include "coordinator/daemon/step_exchange.h"
#include "protocol/baton.pb.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace baton::coordinator {

class DeadWithoutReport {
 public:
  // `plans`: the attempt's plans by node (JobPlans::by_node).
  DeadWithoutReport(const AgentDirectory& agents, const std::map<std::string, protocol::Plan>& plans,
                    const StepExchange& run)
      : agents_(agents), plans_(plans), run_(run) {}

  bool operator()();

 private:
  const AgentDirectory& agents_;
  const std::map<std::string, protocol::Plan>& plans_;
  const StepExchange& run_;
  std::optional<std::uint64_t> none_at_;  // the deaths counted when none was found
};

}  // namespace baton::coordinator
