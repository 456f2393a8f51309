// The tree of a pipelined collective (docs/collectives.md, "Pipelined trees and shards").
// With every message cut into segments, a node's time is what its link carries over its
// rate, and the slowest node sets a floor every schedule shares: it must send (or receive)
// the whole message, M / r_min. The tree keeps every node within that floor: a parent's
// link carries one message per child, each at the slower end's rate (a transfer from p to
// q runs at min(r_p, r_q), and a node's transfers to or from its children take turns, as
// the plan's prediction has them), so child q costs its parent p the share
// r_min / min(r_p, r_q) of the floor. Fast nodes are placed first, nearest the root, each
// under the earliest placed node whose link still has room; slow nodes, which fill a
// parent's link alone, end up as leaves or in a chain of their own.
#pragma once

#include <cstddef>
#include <vector>

namespace baton::collectives {

// What a node's link may carry, in messages at the floor's pace: a reduce (children's
// messages in, one out) or a multicast (one in, the children's out) has 1 for its
// children; an all-reduce over the same tree carries each child's message both ways and
// its parent's too, within 2 M / r_min: 2 less the share of its own parent's message.
enum class TreeLoad { one_way, both_ways };

// Each node's parent in the tree over `rates` (bytes/s, all > 0) rooted at `root` (the
// root's parent is itself): the other nodes by rate, fastest first (ties by index), each
// under the earliest placed node with room for it.
//
// `startup_per_byte` (seconds per byte, >= 0): β over the segment length the messages will
// be cut into. A segment's transfer then takes β + s / min(r_p, r_q), so child q costs its
// parent (β/s + 1/min(r_p, r_q)) / (β/s + 1/r_min) of the floor: with β, four children of
// four times the slowest rate no longer fit in a link that carries one slow message, since
// each pays β as the slow one does. 0 is the bandwidth-only tree.
std::vector<std::size_t> rate_tree(const std::vector<double>& rates, std::size_t root, TreeLoad load,
                                   double startup_per_byte = 0);

}  // namespace baton::collectives
