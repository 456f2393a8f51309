// The agent's own checks on a plan before it accepts it (docs/runtime.md, "The agent's
// checks on a plan"; docs/agent.md).
#pragma once

#include "agent/data_root.h"
#include "error/refusal.h"
#include "protocol/baton.pb.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace baton::agent {

// Nothing when the agent may run `plan` under `root`, otherwise one line naming the first
// problem found, with its step and chunk (or task) when it has them, e.g.
// "step 2, chunk 1 (transfer 7): source range [4096, 8192) is outside src/x.bin (6000 bytes)".
// Chunks are numbered within their step, across its flows in plan order. Which checks a
// plan gets depends on its kind (docs/collectives.md, "The agent's checks").
std::optional<error::Refusal> check_plan(const protocol::Plan& plan, const DataRoot& root);

// Nothing when node `self` may run `plan` self-paced (Plan.members, agent/step_barrier.h):
// no members, or a lockstep plan whose members are right for `self`
// (agent/barrier_members.h), whose chunks' stream ranges stay below the range votes use;
// else why not.
std::optional<error::Refusal> check_members(const protocol::Plan& plan, const std::string& self);

// Nothing when a plan may name the file `name` under a data root (check_name), and it is not in
// the agent's scratch directory; else why not.
std::optional<error::Refusal> check_file_name(std::string_view name);

// The room each of the plan's scratch objects needs, by name: the end of the furthest
// range the plan writes into it (what an embedded agent allocates).
std::map<std::string, std::uint64_t> scratch_sizes(const protocol::Plan& plan);

// What a plan's object names lead to, for storages other than a data root (the embedded
// agent's memory regions). Both functions throw error::InvalidInput naming the object when
// it cannot be used.
struct PlanObjects {
  // Nothing when a name may appear in a plan at all (either end of a chunk), else why not.
  // Scratch names ("scratch:...", agent/scratch.h) are checked before it is asked.
  std::function<std::optional<error::Refusal>(const std::string& name)> check_name;
  // The size of the object a send chunk reads.
  std::function<std::uint64_t(const std::string& name)> source_size;
  // How far a received chunk may write into its object (files: 2^64 − 1, they grow).
  std::function<std::uint64_t(const std::string& name)> destination_limit;
};
std::optional<error::Refusal> check_plan(const protocol::Plan& plan, const PlanObjects& objects);

// A rate a plan paces at (a flow's, a node's): finite, 0 (unpaced), or 1 to the token
// bucket's limit (buckets count whole bytes per second: 0.5 would be a bucket of rate 0,
// which the pacer refuses by throwing); pace_rate_rule says so for a refusal.
bool pace_rate_ok(double bytes_per_second);
inline constexpr const char* pace_rate_rule = "(a rate is 0, unpaced, or 1 to 1e12 bytes/s)";

// The objects of the files under `root` (what check_plan(plan, root) checks against).
// `root` must outlive the result.
PlanObjects data_root_objects(const DataRoot& root);

}  // namespace baton::agent
