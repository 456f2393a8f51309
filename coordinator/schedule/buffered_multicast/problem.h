// Multimessage multicasting with l receive buffers (the buffers paper).
//
// n processors on a fully connected network. Every message starts at one processor (its
// source) and must reach a set of other processors (its destinations). The paper draws an
// instance as a directed multigraph: one edge source → destination per (message,
// destination) pair, the edges of one message bundled together. Every processor has
// `buffers` (the paper's l) receive buffers; the buffer rules are those of docs/formats.md and
// are simulated by validator.h.
//
// Edges are numbered in input order: message 0's destinations first, then message 1's, ...
// (edge_offsets() gives where each message's edges start).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace baton::schedule::buffered_multicast {

using ProcessorId = std::uint32_t;

struct Message {
  ProcessorId source = 0;
  std::vector<ProcessorId> destinations;  // distinct, none equal to source, not empty
};

struct Problem {
  std::size_t processors = 0;
  std::size_t buffers = 1;  // l: receive buffers per processor
  std::vector<Message> messages;
};

// Throws error::InvalidInput unless buffers >= 1, every index is < processors, every
// message has at least one destination, none twice and not its own source. The paper draws
// an edge from a message's holder to each processor that needs it; a processor never needs
// a message it already holds, so a source among its own destinations is malformed, and a
// message without destinations would occupy a send slot for nothing. Runs in O(n + m + E).
void check(const Problem& problem);

// d of the paper: the most messages any processor sends or receives, max{|h_i|, |n_i|}.
std::size_t degree(const Problem& problem);

// The number of (message, destination) edges, E.
std::size_t edge_count(const Problem& problem);

// offsets[m] is the number of the first edge of message m; offsets[m + 1] − offsets[m] is
// its number of destinations. Size messages + 1.
std::vector<std::size_t> edge_offsets(const Problem& problem);

// The bound of Theorem 3.3 as docs/formats.md states it: d·⌈d/l⌉ + l − 1, which is the paper's
// d²/l + l − 1 when l divides d. (The theorem prints d²/l + l + 1, but its own last line
// sums d·(d/l − 1) + d + l − 1, which is d²/l + l − 1, as the abstract says; we use − 1.)
std::uint64_t round_bound(std::size_t degree, std::size_t buffers);

// The bound of Theorem 3.1 for Procedure Coloring: ⌈d/l⌉ groups of d + l − 1 rounds, which
// is the paper's d²/l − d/l + d when l divides d.
std::uint64_t coloring_round_bound(std::size_t degree, std::size_t buffers);

}  // namespace baton::schedule::buffered_multicast
