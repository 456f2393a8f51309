#include "coordinator/daemon/job_plans.h"

#include "coordinator/jobs/agent_plans.h"
#include "coordinator/jobs/in_place_staging.h"
#include "error/error.h"
#include "protocol/barrier_partners.h"

#include <cctype>

namespace baton::coordinator {

JobPlans::JobPlans(std::uint64_t id, const std::string& submitted, const JobSpec& spec, const jobs::CompiledPlan& plan,
                   NodeMap storages, NodeMap addresses)
    : id_(id), spec_(spec), plan_(&plan), storages_(std::move(storages)), addresses_(std::move(addresses)) {
  // The staging files' tag holds the submission time, so a stale staging file of another
  // life of this job id (a coordinator whose journal was lost) is never taken for this one's.
  staging_tag_ = std::to_string(id) + "-";
  for (const char c : submitted) {
    if (std::isalnum(static_cast<unsigned char>(c))) staging_tag_ += c;
  }
  build();
}

bool JobPlans::follow(NodeMap addresses) {
  if (addresses == addresses_) return false;
  addresses_ = std::move(addresses);
  build();
  return true;
}

std::vector<std::string> JobPlans::nodes() const {
  std::vector<std::string> out;
  for (const auto& [node, plan] : plans_) out.push_back(node);
  return out;
}

void JobPlans::build() {
  const JobSpec& spec = spec_;
  const jobs::CompiledPlan& plan = *plan_;
  const jobs::AgentJob agent_job{.id = std::to_string(id_), .number = id_};
  if (jobs::dataflow(spec.kind)) {
    plans_ = jobs::address_plans(plan.agent_plans, addresses_, agent_job);
    return;
  }
  // A buffered multicast's deliveries are transfers of its plan's own.
  const bool redistribution = spec.kind == jobs::JobKind::redistribution;
  const jobs::Clusters& clusters = redistribution ? spec.clusters : plan.clusters;
  const std::vector<jobs::TransferSpec>& transfers = redistribution ? spec.transfers : plan.transfers;
  plans_ = jobs::build_agent_plans(plan, clusters, transfers, addresses_, agent_job);
  // In place: what the job reads is not overwritten before the job ends.
  jobs::stage_plans(plans_, jobs::staged_destinations(transfers, jobs::FileIdentities(spec.identities, storages_)),
                    staging_tag_);
  add_members();
  if (spec.keep_plan) keep();
}

void JobPlans::keep() {
  // An exchange runs every step among the members, with nothing of the coordinator's: a
  // staged (in-place) destination is put in place only at a job's end.
  for (auto& [node, plan] : plans_) {
    if (plan.staged_size() > 0) {
      throw error::InvalidInput("keep_plan: node " + node +
                                " reads what the job writes (in place), which an exchange of a kept plan cannot stage");
    }
    plan.set_keep(true);
  }
}

void JobPlans::add_members() {
  // Rank order is the nodes' order; every node needs its data address (an agent not
  // registered yet has none: its plan is built again when it comes, follow()).
  std::vector<protocol::Member> members;
  members.reserve(plans_.size());
  for (const auto& [node, plan] : plans_) {
    const auto address = addresses_.find(node);
    if (address == addresses_.end() || address->second.empty()) return;
    protocol::Member& member = members.emplace_back();
    member.set_node(node);
    member.set_data_address(address->second);
    member.set_rank(static_cast<std::uint32_t>(members.size() - 1));
  }
  // Each plan lists its node and that node's barrier partners only, so that a plan's size
  // does not grow with the job's (every member in every plan is N^2: 37 MB at 1 024).
  std::size_t rank = 0;
  for (auto& [node, plan] : plans_) {
    const protocol::BarrierPartners partners = protocol::barrier_partners(rank, members.size());
    if (partners.parent) *plan.add_members() = members[*partners.parent];
    *plan.add_members() = members[rank];
    for (const std::size_t child : partners.children) *plan.add_members() = members[child];
    plan.set_member_count(static_cast<std::uint32_t>(members.size()));
    ++rank;
  }
}

}  // namespace baton::coordinator
