// The reduction problem of the SNF paper, Section 2.
//
// n nodes; node p needs times[p] (the paper's t(p)) to send its (combined) message to any
// other node, whoever receives it. Every node but the destination sends exactly once; a
// node is in at most one transfer at a time (1-port). The goal is the earliest time at
// which the destination holds the combination of every node's data.
#pragma once

#include <cstddef>
#include <vector>

namespace baton::schedule::reduction {

struct Problem {
  std::vector<double> times;    // times[p] = t(p) > 0
  std::size_t destination = 0;  // the node that ends with the result; never sends
};

// Throws error::InvalidInput unless there is at least one node, the destination is a
// node, and every time is finite and > 0.
void check(const Problem& problem);

// Every node but the destination, in index order: the n - 1 senders.
std::vector<std::size_t> senders(const Problem& problem);

}  // namespace baton::schedule::reduction
