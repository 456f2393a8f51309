#include "agent/agent_metrics.h"

#include "transport/errors.h"

#include <string>

namespace baton::agent {
namespace {

// A short, stable label value: the transport's error code by name, else the system's message.
std::string error_kind(std::error_code error) {
  using transport::errc;
  if (error.category() != transport::transport_category()) return error.message();
  switch (static_cast<errc>(error.value())) {
    case errc::bad_magic: return "bad_magic";
    case errc::unsupported_version: return "unsupported_version";
    case errc::header_checksum_mismatch: return "header_checksum_mismatch";
    case errc::payload_checksum_mismatch: return "payload_checksum_mismatch";
    case errc::range_checksum_mismatch: return "range_checksum_mismatch";
    case errc::oversized_frame: return "oversized_frame";
    case errc::truncated_frame: return "truncated_frame";
    case errc::unexpected_frame: return "unexpected_frame";
    case errc::idle_timeout: return "idle_timeout";
    case errc::peer_closed: return "peer_closed";
    case errc::rejected_by_peer: return "rejected_by_peer";
    case errc::rejected_by_sink: return "rejected_by_sink";
    case errc::connection_failed: return "connection_failed";
    case errc::provider_unavailable: return "provider_unavailable";
    case errc::fabric_error: return "fabric_error";
    case errc::bad_address: return "bad_address";
    case errc::authentication_failed: return "authentication_failed";
    case errc::frame_authentication_failed: return "frame_authentication_failed";
    case errc::source_too_short: return "source_too_short";
  }
  return error.message();
}

}  // namespace

void declare_agent_metrics(metrics::Registry& registry) {
  using metrics::Type;
  registry.declare("baton_agent_bytes_total", Type::counter,
                   "Payload bytes of completed flows, verified (XXH3), by direction (sent, received).");
  registry.declare("baton_agent_flows_active", Type::gauge, "Transport flows running now, by direction.");
  registry.declare("baton_agent_sends_total", Type::counter,
                   "Send tasks completed, by path (shm: through shared memory to a peer on this host; network).");
  registry.declare("baton_agent_flow_errors_total", Type::counter,
                   "Transport flows that failed, by direction and kind of error.");
  registry.declare("baton_agent_checksum_failures_total", Type::counter,
                   "Flows that ended on a checksum mismatch (the chunk is never written), by direction.");
  registry.declare("baton_agent_steps_total", Type::counter,
                   "Steps this agent ran and reported, by result (ok, failed).");
  registry.declare("baton_agent_step_seconds", Type::histogram, "Duration of this agent's part of a step.",
                   {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300});
  registry.declare("baton_agent_exchanges_total", Type::counter,
                   "Exchanges of kept plans (persistent handoffs) this agent ran, by result (done, failed).");
  registry.declare("baton_agent_plans_total", Type::counter, "Plans received, by answer (accepted, refused).");
  registry.declare("baton_agent_sessions_total", Type::counter,
                   "Coordinator sessions that registered (1 + reconnects after a lost coordinator).");
  registry.declare("baton_agent_registered", Type::gauge, "1 while registered with a coordinator.");
}

void declare_job_metrics(metrics::Registry& registry) {
  using metrics::Type;
  registry.declare("baton_agent_jobs_held", Type::gauge, "Jobs whose plans this agent holds (at most max_jobs).");
  registry.declare("baton_agent_job_steps_done", Type::gauge,
                   "Steps of a held job this agent finished, by job and state (running, done, aborted).");
  registry.declare("baton_agent_job_steps", Type::gauge, "Steps in a held job's plan, by job.");
  registry.declare("baton_agent_job_running_step", Type::gauge,
                   "The step of a held job running here now, counted from 1; 0 when none runs.");
}

void count_flow(metrics::Registry& registry, const char* direction, std::uint64_t bytes, std::error_code error) {
  if (!error) {
    registry.add("baton_agent_bytes_total", {{"direction", direction}}, static_cast<double>(bytes));
    return;
  }
  registry.add("baton_agent_flow_errors_total", {{"direction", direction}, {"error", error_kind(error)}});
  if (error == transport::errc::payload_checksum_mismatch || error == transport::errc::range_checksum_mismatch ||
      error == transport::errc::header_checksum_mismatch) {
    registry.add("baton_agent_checksum_failures_total", {{"direction", direction}});
  }
}

}  // namespace baton::agent
