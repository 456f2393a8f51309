#include "coordinator/calibration/probe_job.h"

#include <algorithm>

namespace baton::calibration {
namespace {

std::size_t index_in(std::vector<std::string>& nodes, const std::string& node) {
  const auto it = std::ranges::find(nodes, node);
  if (it != nodes.end()) return static_cast<std::size_t>(it - nodes.begin());
  nodes.push_back(node);
  return nodes.size() - 1;
}

}  // namespace

ProbeJob probe_job(const ProbeStep& step, const std::vector<std::string>& senders,
                   const std::vector<std::string>& receivers) {
  ProbeJob job;
  job.plan.algorithm = "probe";
  job.plan.shared_links = true;  // unpaced: each flow measures what the network gives it
  job.plan.k = static_cast<int>(step.flows.size());
  jobs::StepPlan out;
  out.predicted_seconds = step.expected_seconds;
  for (const ProbeFlow& f : step.flows) {
    const std::string& sender = senders.at(f.sender);
    const std::string& receiver = receivers.at(f.receiver);
    // A receiver has one flow per probe step (the prober's pairs are disjoint), so every
    // transfer writes the sink from offset 0 without two of them overlapping.
    const std::size_t transfer = job.transfers.size();
    job.transfers.push_back(jobs::TransferSpec{.src_node = sender,
                                               .src_file = kProbeSource,
                                               .src_offset = 0,
                                               .length = f.bytes,
                                               .dst_node = receiver,
                                               .dst_file = kProbeSink,
                                               .dst_offset = 0});
    out.flows.push_back(jobs::Flow{.sender = index_in(job.clusters.senders, sender),
                                   .receiver = index_in(job.clusters.receivers, receiver),
                                   .bytes = f.bytes,
                                   .chunks = {jobs::Chunk{transfer, 0, 0, f.bytes}}});
    out.bytes += f.bytes;
  }
  for (const jobs::Flow& f : out.flows) {
    out.nodes.push_back(jobs::PlannedNode{job.clusters.senders[f.sender], f.bytes, step.expected_seconds});
  }
  for (const jobs::Flow& f : out.flows) {
    out.nodes.push_back(jobs::PlannedNode{job.clusters.receivers[f.receiver], f.bytes, step.expected_seconds});
  }
  job.plan.predicted_seconds = step.expected_seconds;
  job.plan.steps.push_back(std::move(out));
  return job;
}

}  // namespace baton::calibration
