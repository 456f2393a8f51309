#include "coordinator/jobs/job_kind.h"

#include "coordinator/schedule/name_table.h"
#include "error/error.h"

namespace baton::jobs {
namespace {

constexpr schedule::NameTable<JobKind, 5> kKinds{{
    {JobKind::redistribution, "redistribution"},
    {JobKind::reduce, "reduce"},
    {JobKind::allreduce, "allreduce"},
    {JobKind::multicast, "multicast"},
    {JobKind::buffered_multicast, "buffered-multicast"},
}};

}  // namespace

std::string_view name(JobKind kind) {
  if (const auto found = schedule::find_name(kKinds, kind)) return *found;
  throw error::Bug("unknown job kind");
}

std::optional<JobKind> parse_job_kind(std::string_view text) { return schedule::find_value(kKinds, text); }

bool combines(JobKind kind) { return kind == JobKind::reduce || kind == JobKind::allreduce; }
bool dataflow(JobKind kind) { return combines(kind) || kind == JobKind::multicast; }

}  // namespace baton::jobs
