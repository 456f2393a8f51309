#include "coordinator/daemon/node_shares.h"

#include <algorithm>
#include <set>

namespace baton::coordinator {

std::map<std::uint64_t, JobShare> node_shares(const std::vector<SharingJob>& running) {
  std::map<std::string, double> weight_on;  // node → the weights of every job on it
  for (const SharingJob& job : running) {
    for (const std::string& n : std::set<std::string>(job.nodes.begin(), job.nodes.end())) weight_on[n] += job.weight;
  }
  std::map<std::uint64_t, JobShare> shares;
  for (const SharingJob& job : running) {
    JobShare& share = shares[job.id];
    for (const std::string& n : job.nodes) share.nodes[n] = job.weight / weight_on.at(n);
    for (const auto& [node, fraction] : share.nodes) share.pace = std::min(share.pace, fraction);
  }
  return shares;
}

schedule::kpbs::Platform scaled_rates(schedule::kpbs::Platform platform, double factor) {
  platform.sender_rate *= factor;
  platform.receiver_rate *= factor;
  for (double& rate : platform.sender_rates) rate *= factor;
  for (double& rate : platform.receiver_rates) rate *= factor;
  return platform;
}

}  // namespace baton::coordinator
