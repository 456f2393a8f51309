#include "coordinator/jobs/agent_plans.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace baton::coordinator {

namespace {

const std::string& address_of(const std::map<std::string, std::string>& addresses, const std::string& node) {
  const auto it = addresses.find(node);
  if (it == addresses.end()) throw std::invalid_argument("node '" + node + "' has no known data address");
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

std::map<std::string, protocol::Plan> build_agent_plans(const CompiledPlan& plan, const Clusters& clusters,
                                                        const std::vector<TransferSpec>& transfers,
                                                        const std::map<std::string, std::string>& addresses,
                                                        const AgentJob& job) {
  if (plan.steps.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("plan has too many steps");
  // Every node of both clusters gets a plan with every step, so it can report each one.
  std::map<std::string, protocol::Plan> plans;
  for (const auto* cluster : {&clusters.senders, &clusters.receivers}) {
    for (const std::string& node : *cluster) {
      address_of(addresses, node);
      if (plans.contains(node)) continue;  // a node in both clusters gets one plan
      protocol::Plan& p = plans[node];
      p.set_job(job.id);
      p.set_job_number(job.number);
      p.set_k(plan.k);
      for (std::size_t s = 0; s < plan.steps.size(); ++s) {
        protocol::Step& step = *p.add_steps();
        step.set_index(static_cast<std::uint32_t>(s));
        step.set_predicted_seconds(plan.steps[s].predicted_seconds);
      }
    }
  }
  const double rate = job.unpaced ? 0.0 : plan.flow_rate;

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
      out.set_rate(rate);
      protocol::Flow& in = *plans[receiver].mutable_steps(si)->add_flows();
      in.set_send(false);
      in.set_peer(sender);
      in.set_rate(rate);

      std::uint64_t& offset = stream_end[f->receiver];
      for (const Chunk& chunk : f->chunks) {
        const TransferSpec& t = transfers.at(chunk.transfer);
        fill_chunk(*out.add_chunks(), chunk, t, offset);
        fill_chunk(*in.add_chunks(), chunk, t, offset);
        if (chunk.length > std::numeric_limits<std::uint64_t>::max() - offset)
          throw std::invalid_argument("stream of node '" + receiver + "' in step " + std::to_string(s) +
                                      " exceeds 2^64 bytes");
        offset += chunk.length;
      }
    }
  }
  return plans;
}

}  // namespace baton::coordinator
