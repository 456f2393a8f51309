#include "agent/agent_metrics.h"

#include "transport/errors.h"

namespace baton::agent {

void declare_agent_metrics(metrics::Registry& registry) {
  using metrics::Type;
  registry.declare("baton_agent_bytes_total", Type::counter, "Payload bytes moved and verified, by direction (sent, received).");
  registry.declare("baton_agent_flows_active", Type::gauge, "Transport flows running now, by direction.");
  registry.declare("baton_agent_flow_errors_total", Type::counter, "Transport flows that failed, by direction and error.");
  registry.declare("baton_agent_checksum_failures_total", Type::counter,
                   "Chunks or ranges whose XXH3 did not match (never written), by direction.");
  registry.declare("baton_agent_steps_total", Type::counter, "Steps this agent ran and reported, by result (ok, failed).");
  registry.declare("baton_agent_step_seconds", Type::histogram, "Duration of this agent's part of a step.",
                   {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300});
  registry.declare("baton_agent_plans_total", Type::counter, "Plans received, by answer (accepted, refused).");
  registry.declare("baton_agent_sessions_total", Type::counter,
                   "Coordinator sessions that registered (1 + reconnects after a lost coordinator).");
  registry.declare("baton_agent_registered", Type::gauge, "1 while registered with a coordinator.");
}

void count_flow(metrics::Registry& registry, const char* direction, std::uint64_t bytes, std::error_code error) {
  if (!error) {
    registry.add("baton_agent_bytes_total", {{"direction", direction}}, static_cast<double>(bytes));
    return;
  }
  registry.add("baton_agent_flow_errors_total", {{"direction", direction}, {"error", error.message()}});
  if (error == transport::errc::payload_checksum_mismatch || error == transport::errc::range_checksum_mismatch ||
      error == transport::errc::header_checksum_mismatch) {
    registry.add("baton_agent_checksum_failures_total", {{"direction", direction}});
  }
}

}  // namespace baton::agent
