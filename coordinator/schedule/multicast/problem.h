// The multiple multicast problem and the cost model of Section 2 of
// the multiple-multicast paper (Wu, Yeh, Liu).
//
// N nodes, fully connected. Each multicast m_k has a source, a length l_k in bytes and a
// set of destinations D_k. Sending m_k from P_i to P_j costs (Equation 1)
//   T(i, j, l_k) = S(i, l_k) + X(i, j)·l_k + R(j, l_k)
// with S(i, m) = S_c(i) + S_m(i)·m (Equation 2) and R(j, m) = R_c(j) + R_m(j)·m (Equation 3).
// Sends are non-blocking: the sender is busy for S(i, l_k) only. Receives are blocking: the
// receiver is busy for R(j, l_k), starting no earlier than the message has arrived.
//
// The paper names a multicast by its source node (one multicast per source); here a
// multicast is an index into Problem::multicasts, so one node may be the source of several.
#pragma once

#include "error/refusal.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace baton::schedule::multicast {

using NodeId = std::size_t;
using MulticastId = std::size_t;

// One node's software overheads, in seconds and seconds per byte.
struct NodeCosts {
  double send_fixed = 0;     // S_c(i)
  double send_per_byte = 0;  // S_m(i)
  double recv_fixed = 0;     // R_c(i)
  double recv_per_byte = 0;  // R_m(i)
};

struct Multicast {
  NodeId source = 0;
  std::uint64_t bytes = 0;           // l_k
  std::vector<NodeId> destinations;  // D_k: distinct, never the source
};

struct Problem {
  std::vector<NodeCosts> nodes;
  std::vector<std::vector<double>> link_per_byte;  // X(i, j), nodes × nodes (diagonal unused)
  std::vector<Multicast> multicasts;

  std::size_t node_count() const { return nodes.size(); }
};

// Section 2's costs of multicast k's message.
double send_overhead(const Problem& problem, NodeId sender, MulticastId k);       // S(i, l_k)
double link_time(const Problem& problem, NodeId from, NodeId to, MulticastId k);  // X(i, j)·l_k
double recv_overhead(const Problem& problem, NodeId receiver, MulticastId k);     // R(j, l_k)
// Equation 7 (and 1): the point-to-point latency S(i, l_k) + X(i, j)·l_k + R(j, l_k).
double latency(const Problem& problem, NodeId from, NodeId to, MulticastId k);

// A uniform X(i, j) = per_byte matrix for `nodes` nodes.
std::vector<std::vector<double>> uniform_links(std::size_t nodes, double per_byte);

// Nothing when the problem is well formed, else one line saying what is wrong: every cost
// finite and >= 0, a square link matrix, sources and destinations in range, destinations
// distinct and never the source.
std::optional<error::Refusal> problem_error(const Problem& problem);

// Total number of deliveries Σ_k |D_k|: the number of transfers in every schedule.
std::size_t delivery_count(const Problem& problem);

}  // namespace baton::schedule::multicast
