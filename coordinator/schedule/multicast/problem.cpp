#include "coordinator/schedule/multicast/problem.h"

#include <cmath>

namespace baton::schedule::multicast {
namespace {

double length(const Problem& problem, MulticastId k) { return static_cast<double>(problem.multicasts[k].bytes); }

bool valid_cost(double v) { return std::isfinite(v) && v >= 0; }

}  // namespace

double send_overhead(const Problem& problem, NodeId sender, MulticastId k) {
  const NodeCosts& c = problem.nodes[sender];
  return c.send_fixed + c.send_per_byte * length(problem, k);
}

double link_time(const Problem& problem, NodeId from, NodeId to, MulticastId k) {
  return problem.link_per_byte[from][to] * length(problem, k);
}

double recv_overhead(const Problem& problem, NodeId receiver, MulticastId k) {
  const NodeCosts& c = problem.nodes[receiver];
  return c.recv_fixed + c.recv_per_byte * length(problem, k);
}

double latency(const Problem& problem, NodeId from, NodeId to, MulticastId k) {
  return send_overhead(problem, from, k) + link_time(problem, from, to, k) + recv_overhead(problem, to, k);
}

std::vector<std::vector<double>> uniform_links(std::size_t nodes, double per_byte) {
  return std::vector<std::vector<double>>(nodes, std::vector<double>(nodes, per_byte));
}

std::optional<error::Refusal> problem_error(const Problem& problem) {
  const std::size_t n = problem.node_count();
  for (NodeId i = 0; i < n; ++i) {
    const NodeCosts& c = problem.nodes[i];
    if (!valid_cost(c.send_fixed) || !valid_cost(c.send_per_byte) || !valid_cost(c.recv_fixed) ||
        !valid_cost(c.recv_per_byte)) {
      return "node " + std::to_string(i) + ": costs must be finite and >= 0";
    }
  }
  if (problem.link_per_byte.size() != n) return "link matrix: must have one row per node";
  for (NodeId i = 0; i < n; ++i) {
    if (problem.link_per_byte[i].size() != n) {
      return "link matrix row " + std::to_string(i) + ": must have one entry per node";
    }
    for (double x : problem.link_per_byte[i]) {
      if (!valid_cost(x)) return "link matrix row " + std::to_string(i) + ": must be finite and >= 0";
    }
  }
  for (MulticastId k = 0; k < problem.multicasts.size(); ++k) {
    const Multicast& m = problem.multicasts[k];
    const std::string where = "multicast " + std::to_string(k);
    if (m.source >= n) return where + ": source out of range";
    std::vector<bool> seen(n, false);
    for (NodeId d : m.destinations) {
      if (d >= n) return where + ": destination out of range";
      if (d == m.source) return where + ": the source is one of its destinations";
      if (seen[d]) return where + ": destination " + std::to_string(d) + " listed twice";
      seen[d] = true;
    }
  }
  return std::nullopt;
}

std::size_t delivery_count(const Problem& problem) {
  std::size_t total = 0;
  for (const Multicast& m : problem.multicasts) total += m.destinations.size();
  return total;
}

}  // namespace baton::schedule::multicast
