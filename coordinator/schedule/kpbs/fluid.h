// The paced fluid schedule (docs/redistribution.md, "The fluid plan"): not one of the
// papers'. Every (sender, receiver) pair sends all it owes at once, paced at its share
// m_ij / T* of the bandwidth bound, so that no node's flows together exceed its rate, the
// backbone's are within D, and every flow ends together at T* (bandwidth_bound.h).
//
// A node opens one connection per flow; at most `connection_limit` at once. A node with
// more peers than that splits the pairs into groups run one after the other (largest
// pairs first, each into the first group where both its ends have room), each group a step
// lasting its own bound: the plan then costs T* plus a β per extra step plus whatever the
// groups fail to balance.
#pragma once

#include "coordinator/schedule/kpbs/platform.h"
#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/schedule.h"

#include <cstddef>

namespace baton::schedule::kpbs {

// The most flows a node sends or receives at once in a fluid step. Each is a connection
// with its own pacer on both ends; 16 keeps those few on a node while a 16 x 16 exchange
// still runs in one step.
inline constexpr std::size_t kFluidConnectionLimit = 16;

// Steps of whole pairs; each step's duration is its bound (each flow's rate is its amount
// / the duration). Throws error::InvalidInput for a limit of 0.
Schedule fluid(const Matrix& bytes, const NodeRates& rates, std::size_t connection_limit = kFluidConnectionLimit);

}  // namespace baton::schedule::kpbs
