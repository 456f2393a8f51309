#include "coordinator/jobs/job_kind.h"

#include <array>
#include <stdexcept>
#include <utility>

namespace baton::jobs {
namespace {

constexpr std::array<std::pair<JobKind, std::string_view>, 5> kKinds{{
    {JobKind::redistribution, "redistribution"},
    {JobKind::reduce, "reduce"},
    {JobKind::allreduce, "allreduce"},
    {JobKind::multicast, "multicast"},
    {JobKind::buffered_multicast, "buffered-multicast"},
}};

}  // namespace

std::string_view name(JobKind kind) {
  for (const auto& [k, n] : kKinds) {
    if (k == kind) return n;
  }
  throw std::logic_error("unknown job kind");
}

std::optional<JobKind> parse_job_kind(std::string_view text) {
  for (const auto& [k, n] : kKinds) {
    if (n == text) return k;
  }
  return std::nullopt;
}

bool combines(JobKind kind) { return kind == JobKind::reduce || kind == JobKind::allreduce; }
bool dataflow(JobKind kind) { return combines(kind) || kind == JobKind::multicast; }

}  // namespace baton::jobs
