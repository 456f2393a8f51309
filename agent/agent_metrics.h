// The agent's metrics (docs/metrics.md): declared once per registry, updated where the
// events happen (agent.cpp: sessions, plans, steps, held jobs; step_runner.cpp: flows and bytes).
#pragma once

#include "metrics/registry.h"

#include <system_error>

namespace baton::agent {

void declare_agent_metrics(metrics::Registry& registry);

// The held jobs' gauges, in a registry of their own that the agent makes anew whenever a
// job changes (a dropped job leaves no series behind).
void declare_job_metrics(metrics::Registry& registry);

// A transport flow that ended: counts its bytes, or its failure by kind (checksum
// mismatches also in baton_agent_checksum_failures_total).
void count_flow(metrics::Registry& registry, const char* direction, std::uint64_t bytes, std::error_code error);

}  // namespace baton::agent
