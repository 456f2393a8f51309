// The plans a running job's agents hold (docs/runtime.md, "Control sessions" 4): one per
// node, built from the compiled plan and the nodes' data addresses, with an in-place job's
// destinations staged (coordinator/jobs/in_place_staging.h); built again when an agent comes back
// listening elsewhere.
#pragma once

#include "coordinator/daemon/job_spec.h"
#include "coordinator/jobs/plan_compiler.h"
#include "protocol/baton.pb.h"

#include <map>
#include <string>
#include <vector>

namespace baton::coordinator {

class JobPlans {
 public:
  using NodeMap = std::map<std::string, std::string>;

  // The plans of run `id` (a job's, or a calibration probe's), submitted at `submitted`;
  // `storages` and `addresses` name every node of `spec`. `spec` and `plan` outlive this.
  // Throws what build_agent_plans and staged_destinations throw, and keep().
  JobPlans(std::uint64_t id, const std::string& submitted, const JobSpec& spec, const jobs::CompiledPlan& plan,
           NodeMap storages, NodeMap addresses);

  // Builds the plans again when `addresses` differ from the ones they name; true if so.
  bool follow(NodeMap addresses);
  // Builds the plans again from the job's new plan (a re-plan on drift).
  void rebuild(const jobs::CompiledPlan& plan) {
    plan_ = &plan;
    build();
  }

  const std::map<std::string, protocol::Plan>& by_node() const { return plans_; }
  // Every node with a plan (both clusters, each once).
  std::vector<std::string> nodes() const;
  // Every node of the job, with a plan or not (JobSpec::nodes).
  std::vector<std::string> job_nodes() const { return spec_.nodes(); }
  std::string job() const { return std::to_string(id_); }

 private:
  void build();
  // A lockstep job's plans list its nodes with their data addresses (Plan.members): they
  // may run self-paced (docs/runtime.md, "Self-paced steps").
  void add_members();
  // A job with "keep_plan": each plan kept by its agent after the job (Plan.keep). Throws
  // error::InvalidInput for an in-place job, whose staged destinations an exchange cannot
  // put in place.
  void keep();

  std::uint64_t id_;
  const JobSpec& spec_;
  const jobs::CompiledPlan* plan_;
  NodeMap storages_;
  NodeMap addresses_;
  std::string staging_tag_;
  std::map<std::string, protocol::Plan> plans_;
};

}  // namespace baton::coordinator
