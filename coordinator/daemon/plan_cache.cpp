#include "coordinator/daemon/plan_cache.h"

#include <algorithm>
#include <tuple>

namespace baton::coordinator {
namespace {

auto fields(const jobs::TransferSpec& t) {
  return std::tie(t.src_node, t.src_file, t.src_offset, t.length, t.dst_node, t.dst_file, t.dst_offset);
}

auto fields(const schedule::kpbs::Platform& p) {
  return std::tie(p.sender_rate, p.receiver_rate, p.backbone_rate, p.step_startup, p.sender_rates, p.receiver_rates);
}

}  // namespace

bool PlanInputs::operator==(const PlanInputs& other) const {
  return algorithm == other.algorithm && fields(platform) == fields(other.platform) &&
         clusters.senders == other.clusters.senders && clusters.receivers == other.clusters.receivers &&
         std::ranges::equal(transfers, other.transfers, [](const jobs::TransferSpec& a, const jobs::TransferSpec& b) {
           return fields(a) == fields(b);
         });
}

std::optional<PlanCache::Hit> PlanCache::find(const PlanInputs& inputs) {
  const auto found = std::ranges::find_if(entries_, [&](const Entry& e) { return e.inputs == inputs; });
  if (found == entries_.end()) return std::nullopt;
  entries_.splice(entries_.begin(), entries_, found);
  return Hit{found->plan, found->job};
}

void PlanCache::keep(PlanInputs inputs, std::uint64_t job, const jobs::CompiledPlan& plan) {
  if (inputs.transfers.size() > kMaxTransfers) return;
  std::erase_if(entries_, [&](const Entry& e) { return e.inputs == inputs; });
  entries_.push_front(Entry{std::move(inputs), job, plan});
  if (entries_.size() > kPlans) entries_.pop_back();
}

}  // namespace baton::coordinator
