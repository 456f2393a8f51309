#include "coordinator/collectives/lockstep_check.h"

#include <algorithm>
#include <map>
#include <set>

namespace baton::collectives {

std::vector<std::string> check_buffered_plan(const CollectiveJob& job, const CollectiveModel& model,
                                             const jobs::CompiledPlan& plan) {
  std::vector<std::string> errors;
  const auto fail = [&](const std::string& e) {
    if (errors.size() < 20) errors.push_back(e);
  };
  const std::vector<std::string>& senders = plan.clusters.senders;
  const std::vector<std::string>& receivers = plan.clusters.receivers;
  // Which (message, destination) each transfer delivers.
  std::map<std::size_t, std::pair<std::size_t, std::string>> delivers;
  std::set<std::pair<std::size_t, std::string>> expected;
  for (std::size_t k = 0; k < job.messages.size(); ++k) {
    for (const std::string& d : job.messages[k].destinations) expected.insert({k, d});
  }
  for (std::size_t t = 0; t < plan.transfers.size(); ++t) {
    const jobs::TransferSpec& x = plan.transfers[t];
    for (std::size_t k = 0; k < job.messages.size(); ++k) {
      const Message& m = job.messages[k];
      if (x.src_node == m.source && x.src_file == m.file && x.src_offset == m.offset && x.length == *m.length &&
          x.dst_file == m.dst_file && x.dst_offset == 0 && expected.contains({k, x.dst_node})) {
        delivers[t] = {k, x.dst_node};
      }
    }
    if (!delivers.contains(t)) fail("transfer " + std::to_string(t) + " delivers no message of the job");
  }
  std::map<std::size_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>>
      pieces;  // transfer → (dst offset, length)
  for (std::size_t s = 0; s < plan.steps.size(); ++s) {
    const std::string step = "step " + std::to_string(s);
    std::map<std::string, std::set<std::size_t>> sent, received;  // node → messages
    std::map<std::string, double> out_rate, in_rate;
    for (const jobs::Flow& f : plan.steps[s].flows) {
      if (f.sender >= senders.size() || f.receiver >= receivers.size()) {
        fail(step + ": a flow names no node");
        continue;
      }
      const std::string& from = senders[f.sender];
      const std::string& to = receivers[f.receiver];
      out_rate[from] += f.rate;
      in_rate[to] += f.rate;
      if (!(f.rate > 0)) fail(step + ": the flow " + from + " → " + to + " has no pace");
      for (const jobs::Chunk& c : f.chunks) {
        const auto d = delivers.find(c.transfer);
        if (d == delivers.end()) continue;
        const jobs::TransferSpec& x = plan.transfers[c.transfer];
        if (x.src_node != from || x.dst_node != to || c.src_offset != x.src_offset + c.dst_offset) {
          fail(step + ": a chunk of transfer " + std::to_string(c.transfer) + " goes " + from + " → " + to +
               " or from the wrong bytes");
        }
        sent[from].insert(d->second.first);
        received[to].insert(d->second.first);
        pieces[c.transfer].emplace_back(c.dst_offset, c.length);
      }
    }
    for (const auto& [node, messages] : sent) {
      if (messages.size() > 1) fail(step + ": " + node + " sends " + std::to_string(messages.size()) + " messages");
      if (out_rate[node] > model.nodes.at(node).rate * (1 + 1e-9)) fail(step + ": " + node + " sends past its rate");
    }
    for (const auto& [node, messages] : received) {
      if (messages.size() > job.buffers) {
        fail(step + ": " + node + " receives " + std::to_string(messages.size()) + " messages, more than " +
             std::to_string(job.buffers) + " buffers");
      }
      if (in_rate[node] > model.nodes.at(node).rate * (1 + 1e-9)) fail(step + ": " + node + " receives past its rate");
    }
  }
  std::set<std::pair<std::size_t, std::string>> done;
  for (auto& [t, list] : pieces) {
    std::ranges::sort(list);
    std::uint64_t at = 0;
    for (const auto& [offset, length] : list) {
      if (offset != at) break;
      at += length;
    }
    if (at != plan.transfers[t].length) {
      fail("transfer " + std::to_string(t) + " does not deliver its message exactly once, whole");
    } else if (!done.insert(delivers.at(t)).second) {
      fail(delivers.at(t).second + " receives message " + std::to_string(delivers.at(t).first) + " twice");
    }
  }
  for (const auto& [k, d] : expected) {
    if (!done.contains({k, d})) fail(d + " never receives message " + std::to_string(k));
  }
  return errors;
}

}  // namespace baton::collectives
