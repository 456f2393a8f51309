// The senders grouped by speed, and the size of the search tree over their orders
// (the SNF paper, Section 6.2).
//
// Senders with equal times are interchangeable, so a search over EP orders branches on the
// class of the next sender, not on the node: a tree node is a sequence of classes (the
// root is the empty one), a leaf a whole order. With class sizes c_1..c_k the tree has
// (sum c_i)! / prod c_i! leaves. These counts match Table 1's N and L when P counts the
// senders (for P = 10 and three random classes the expected N is 7765, L 2382; the paper
// averages 7852 and 2406 over 50 clusters).
#pragma once

#include "coordinator/schedule/reduction/problem.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace baton::schedule::reduction {

struct SpeedClass {
  double time = 0;
  std::vector<std::size_t> nodes;  // in index order
};

// Slowest class first; the destination is not a sender and is left out.
std::vector<SpeedClass> speed_classes(const Problem& problem);

struct SearchTreeSize {
  std::uint64_t nodes = 0;  // root and every prefix included
  std::uint64_t leaves = 0;
  bool saturated = false;  // a count exceeded `cap`; both are then cap
};

// `cap` is at most 2^62 (larger values are lowered to it).
SearchTreeSize search_tree_size(std::span<const std::size_t> class_sizes, std::uint64_t cap);

}  // namespace baton::schedule::reduction
