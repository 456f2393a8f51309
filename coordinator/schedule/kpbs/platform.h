// The platform form of the redistribution problem: bytes and rates, as an operator knows
// them. Section 2.1 of the kpbs paper derives the flow speed d and k from the rates, and
// Section 2.2 normalizes by d; this file does both and maps schedules back to bytes.
//
// Beyond the paper, each node may have a rate of its own (docs/redistribution.md, "Nodes of
// their own rates"): a pair's flow then runs at the slower of its two ends, and the papers'
// algorithms schedule each pair's time at that rate.
#pragma once

#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/schedule.h"

#include <cstddef>
#include <vector>

namespace baton::schedule::kpbs {

struct Platform {
  double sender_rate = 0;    // d1: bytes/s of a node of cluster C1
  double receiver_rate = 0;  // d2: bytes/s of a node of cluster C2
  double backbone_rate = 0;  // D: bytes/s of the backbone
  double step_startup = 0;   // β: seconds to start a step
  // Each sender's and each receiver's own rate, bytes/s, in cluster order; empty: every
  // node of the cluster at sender_rate (receiver_rate). The agents declare theirs as TCP
  // goodput, the bytes a second a connection carries over their link.
  std::vector<double> sender_rates;
  std::vector<double> receiver_rates;
};

// Every node's rate and the backbone's, bytes/s: what the bandwidth bound and the fluid
// plan share out.
struct NodeRates {
  std::vector<double> send;     // s_i of each sender
  std::vector<double> receive;  // r_j of each receiver
  double backbone = 0;          // D
};

struct PlatformProblem {
  Platform platform;
  Matrix bytes;  // bytes[i][j]: whole bytes sender i owes receiver j
};

// d = min(d1, d2, D): the speed of every flow on a uniform platform; with nodes of their
// own rates, the slowest pair's.
double flow_rate(const Platform& platform);

// Whether the platform names rates that differ between the nodes of a cluster.
bool has_node_rates(const Platform& platform);

// The rates of the nodes of a problem of `senders` x `receivers`. Throws
// error::InvalidInput when a list of rates does not have one per node or a rate is not > 0.
NodeRates node_rates(const Platform& platform, std::size_t senders, std::size_t receivers);

// The pace of a flow from sender i to receiver j: min(s_i, r_j, D).
double pair_rate(const NodeRates& rates, std::size_t sender, std::size_t receiver);

// k = min(n1, n2, ⌊D/d⌋): the most flows that fit the backbone and the clusters. With
// nodes of their own rates, d is the fastest pair's, so that any k flows fit the backbone.
int derive_k(const Platform& platform, std::size_t senders, std::size_t receivers);

// The normalized problem: times = bytes/d (each pair's bytes at its own pair_rate), β =
// step start-up, k derived.
Problem normalize(const PlatformProblem& problem);

// Maps a schedule of `normalize(problem)` back to whole bytes and seconds. Each transfer's
// cut points move to whole bytes (a piece that rounds to nothing is dropped, and with it
// a step left empty); every (sender, receiver) still adds up to its exact byte count, and
// durations are recomputed as the longest of bytes / the pair's rate.
Schedule to_bytes(const Schedule& in_time, const PlatformProblem& problem);

}  // namespace baton::schedule::kpbs
