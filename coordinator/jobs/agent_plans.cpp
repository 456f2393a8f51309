#include "coordinator/jobs/agent_plans.h"

#include "error/error.h"
#include "protocol/frame.h"
#include "security/hmac.h"

#include <algorithm>
#include <iomanip>
#include <limits>
#include <set>
#include <sstream>

namespace baton::jobs {

namespace {

// What a Plan gains on its way into a frame: the Envelope's version field (at most 6
// bytes), the plan's field tag and length (at most 1 + 5), and the session's MAC.
constexpr std::size_t kEnvelopeOverhead = 6 + 1 + 5 + security::kMacBytes;

std::string mib(std::size_t bytes) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / (1 << 20) << " MiB";
  return out.str();
}

const std::string& address_of(const std::map<std::string, std::string>& addresses, const std::string& node) {
  const auto it = addresses.find(node);
  if (it == addresses.end()) throw error::InvalidInput("node '" + node + "' has no known data address");
  return it->second;
}

void fill_chunk(protocol::Chunk& out, const Chunk& chunk, const TransferSpec& t, std::uint64_t stream_offset) {
  out.set_transfer(chunk.transfer);
  out.set_src_file(t.src_file);
  out.set_src_offset(chunk.src_offset);
  out.set_dst_file(t.dst_file);
  out.set_dst_offset(chunk.dst_offset);
  out.set_length(chunk.length);
  out.set_stream_offset(stream_offset);
}

}  // namespace

std::size_t max_agent_plan_bytes() { return protocol::kDefaultMaxFrame - kEnvelopeOverhead; }

std::map<std::string, protocol::Plan> build_agent_plans(const CompiledPlan& plan, const Clusters& clusters,
                                                        const std::vector<TransferSpec>& transfers,
                                                        const std::map<std::string, std::string>& addresses,
                                                        const AgentJob& job) {
  std::set<std::string> nodes;  // a node in both clusters gets one plan
  for (const auto* cluster : {&clusters.senders, &clusters.receivers}) {
    for (const std::string& node : *cluster) {
      address_of(addresses, node);
      nodes.insert(node);
    }
  }
  // Every node's plan lists every step: with too many steps for this many nodes the job
  // fails here, having built one node's list of steps rather than all of them.
  protocol::Plan skeleton;
  skeleton.set_job(job.id);
  skeleton.set_job_number(job.number);
  skeleton.set_k(plan.k);
  skeleton.set_kind(std::string(name(plan.kind)));
  skeleton.set_shared_links(plan.shared_links);
  std::size_t listed = 0;  // the steps' bytes so far: stop building once they cannot fit
  for (std::size_t s = 0; s < plan.steps.size() && listed <= max_agent_plan_bytes(); ++s) {
    protocol::Step& step = *skeleton.add_steps();
    step.set_index(static_cast<std::uint32_t>(s));
    step.set_predicted_seconds(plan.steps[s].predicted_seconds);
    listed += step.ByteSizeLong();
  }
  const std::size_t skeleton_bytes = skeleton.ByteSizeLong();
  if (skeleton_bytes > max_agent_plan_bytes() || skeleton_bytes * nodes.size() > kMaxTotalPlanBytes) {
    throw PlanTooLarge("the plan has " + std::to_string(plan.steps.size()) + " steps, listed in the plan of each of " +
                       std::to_string(nodes.size()) + " nodes: more than the limits of " + mib(max_agent_plan_bytes()) +
                       " per node and " + mib(kMaxTotalPlanBytes) + " in all; split the job");
  }
  std::map<std::string, protocol::Plan> plans;
  for (const std::string& node : nodes) plans[node] = skeleton;
  const double rate = plan.shared_links ? 0.0 : plan.flow_rate;  // all-at-once runs unpaced

  for (std::size_t s = 0; s < plan.steps.size(); ++s) {
    const int si = static_cast<int>(s);
    // Plan order: the step's flows by sender (stable, so chunk order is kept).
    std::vector<const Flow*> flows;
    for (const Flow& f : plan.steps[s].flows) flows.push_back(&f);
    std::stable_sort(flows.begin(), flows.end(), [](const Flow* a, const Flow* b) { return a->sender < b->sender; });

    std::map<std::size_t, std::uint64_t> stream_end;  // per receiver index: next stream offset
    for (const Flow* f : flows) {
      const std::string& sender = clusters.senders.at(f->sender);
      const std::string& receiver = clusters.receivers.at(f->receiver);
      protocol::Flow& out = *plans[sender].mutable_steps(si)->add_flows();
      out.set_send(true);
      out.set_peer(receiver);
      out.set_peer_address(address_of(addresses, receiver));
      out.set_rate(f->rate > 0 ? f->rate : rate);
      protocol::Flow& in = *plans[receiver].mutable_steps(si)->add_flows();
      in.set_send(false);
      in.set_peer(sender);
      in.set_rate(out.rate());

      std::uint64_t& offset = stream_end[f->receiver];
      for (const Chunk& chunk : f->chunks) {
        const TransferSpec& t = transfers.at(chunk.transfer);
        fill_chunk(*out.add_chunks(), chunk, t, offset);
        fill_chunk(*in.add_chunks(), chunk, t, offset);
        if (chunk.length > std::numeric_limits<std::uint64_t>::max() - offset)
          throw error::InvalidInput("stream of node '" + receiver + "' in step " + std::to_string(s) +
                                    " exceeds 2^64 bytes");
        offset += chunk.length;
      }
    }
  }
  std::size_t total = 0;
  for (const auto& [node, p] : plans) {
    const std::size_t bytes = p.ByteSizeLong();
    if (bytes > max_agent_plan_bytes()) {
      throw PlanTooLarge("the plan for node '" + node + "' is " + std::to_string(bytes) + " bytes (" + mib(bytes) +
                         "), more than the " + std::to_string(max_agent_plan_bytes()) +
                         " bytes a control frame holds; spread the job over more nodes or split it");
    }
    total += bytes;
  }
  if (total > kMaxTotalPlanBytes) {
    throw PlanTooLarge("the nodes' plans hold " + std::to_string(total) + " bytes (" + mib(total) +
                       ") together, more than the limit " + std::to_string(kMaxTotalPlanBytes) + "; split the job");
  }
  return plans;
}

std::map<std::string, protocol::Plan> address_plans(const std::map<std::string, protocol::Plan>& plans,
                                                    const std::map<std::string, std::string>& addresses,
                                                    const AgentJob& job) {
  std::map<std::string, protocol::Plan> out = plans;
  std::size_t total = 0;
  for (auto& [node, plan] : out) {
    address_of(addresses, node);
    plan.set_job(job.id);
    plan.set_job_number(job.number);
    for (protocol::Step& step : *plan.mutable_steps()) {
      for (protocol::Task& task : *step.mutable_tasks()) {
        if (task.has_flow() && task.flow().send()) {
          task.mutable_flow()->set_peer_address(address_of(addresses, task.flow().peer()));
        }
      }
    }
    const std::size_t bytes = plan.ByteSizeLong();
    if (bytes > max_agent_plan_bytes()) {
      throw PlanTooLarge("the plan for node '" + node + "' is " + std::to_string(bytes) + " bytes (" + mib(bytes) +
                         "), more than the " + std::to_string(max_agent_plan_bytes()) +
                         " bytes a control frame holds; split the job");
    }
    total += bytes;
  }
  if (total > kMaxTotalPlanBytes) {
    throw PlanTooLarge("the nodes' plans hold " + std::to_string(total) + " bytes (" + mib(total) +
                       ") together, more than the limit " + std::to_string(kMaxTotalPlanBytes) + "; split the job");
  }
  return out;
}

}  // namespace baton::jobs
