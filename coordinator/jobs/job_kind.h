// What a job is: a redistribution or one of the collectives (docs/collectives.md, "Jobs").
// The names are the API's "kind" and the agents' Plan.kind.
#pragma once

#include <optional>
#include <string_view>

namespace baton::jobs {

enum class JobKind { redistribution, reduce, allreduce, multicast, buffered_multicast };

std::string_view name(JobKind kind);
std::optional<JobKind> parse_job_kind(std::string_view name);
// Reduce and all-reduce combine arrays; multicasts copy messages.
bool combines(JobKind kind);
// Dataflow (one step of tasks: reduce, all-reduce, multicast) or lockstep steps.
bool dataflow(JobKind kind);

}  // namespace baton::jobs
