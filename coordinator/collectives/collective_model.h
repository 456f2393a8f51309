// The papers' parameters from what the coordinator knows of the nodes (docs/collectives.md,
// "From the model to the nodes"): each node's rate r_p (registered by its agent), its
// combine speed c_p for the job's dtype and op (measured by its agent at start), and β, the
// fixed cost of starting a transfer (the coordinator's collective_startup).
#pragma once

#include "coordinator/schedule/multicast/problem.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace baton::collectives {

struct NodeModel {
  double rate = 0;           // r_p, bytes/s, > 0
  double combine_speed = 0;  // c_p, bytes of one array folded per second; 0 for a job that combines nothing
};

struct CollectiveModel {
  double beta = 0;  // β, seconds
  std::map<std::string, NodeModel> nodes;

  // The pace of a flow from p to q: min(r_p, r_q), no faster than its slower end.
  double flow_rate(const std::string& p, const std::string& q) const;
  // A transfer as the plan predicts it: β + bytes / min(r_p, r_q).
  double transfer_seconds(const std::string& p, const std::string& q, std::uint64_t bytes) const;
  // A combine folding `inputs` regions of `bytes` each into one: (inputs - 1) folds of
  // bytes / c_p.
  double combine_seconds(const std::string& p, std::uint64_t bytes, std::size_t inputs) const;
  // The SNF paper's t(p) for a message of m bytes: β + m / r_p + m / c_p, the time p takes
  // to combine its message and send it.
  double snf_time(const std::string& p, std::uint64_t bytes) const;
  // The multicast model (Wu, Yeh, Liu, Equations 1-3) of these nodes, in `order`:
  // S(i, l) = β + l / r_i, X(i, j) = max(0, 1 / r_j − 1 / r_i) per byte, R(j, l) = 0.
  std::vector<schedule::multicast::NodeCosts> multicast_costs(const std::vector<std::string>& order) const;
  std::vector<std::vector<double>> multicast_links(const std::vector<std::string>& order) const;
};

}  // namespace baton::collectives
