#include "coordinator/collectives/collective_model.h"

#include <algorithm>

namespace baton::collectives {

double CollectiveModel::flow_rate(const std::string& p, const std::string& q) const {
  return std::min(nodes.at(p).rate, nodes.at(q).rate);
}

double CollectiveModel::transfer_seconds(const std::string& p, const std::string& q, std::uint64_t bytes) const {
  return beta + static_cast<double>(bytes) / flow_rate(p, q);
}

double CollectiveModel::combine_seconds(const std::string& p, std::uint64_t bytes, std::size_t inputs) const {
  if (inputs < 2) return 0;
  return static_cast<double>(inputs - 1) * static_cast<double>(bytes) / nodes.at(p).combine_speed;
}

double CollectiveModel::snf_time(const std::string& p, std::uint64_t bytes) const {
  const NodeModel& node = nodes.at(p);
  const double m = static_cast<double>(bytes);
  return beta + m / node.rate + m / node.combine_speed;
}

std::vector<schedule::multicast::NodeCosts> CollectiveModel::multicast_costs(
    const std::vector<std::string>& order) const {
  std::vector<schedule::multicast::NodeCosts> costs;
  for (const std::string& n : order) {
    costs.push_back({.send_fixed = beta, .send_per_byte = 1 / nodes.at(n).rate, .recv_fixed = 0, .recv_per_byte = 0});
  }
  return costs;
}

std::vector<std::vector<double>> CollectiveModel::multicast_links(const std::vector<std::string>& order) const {
  std::vector<std::vector<double>> links(order.size(), std::vector<double>(order.size(), 0.0));
  for (std::size_t i = 0; i < order.size(); ++i) {
    for (std::size_t j = 0; j < order.size(); ++j) {
      if (i != j) links[i][j] = std::max(0.0, 1 / nodes.at(order[j]).rate - 1 / nodes.at(order[i]).rate);
    }
  }
  return links;
}

}  // namespace baton::collectives
