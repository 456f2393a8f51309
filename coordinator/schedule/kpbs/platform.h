// The platform form of the redistribution problem: bytes and rates, as an operator knows
// them. Section 2.1 of the kpbs paper derives the flow speed d and k from the rates, and
// Section 2.2 normalizes by d; this file does both and maps schedules back to bytes.
#pragma once

#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/schedule.h"

namespace baton::schedule::kpbs {

struct Platform {
  double sender_rate = 0;    // d1: bytes/s of a node of cluster C1
  double receiver_rate = 0;  // d2: bytes/s of a node of cluster C2
  double backbone_rate = 0;  // D: bytes/s of the backbone
  double step_startup = 0;   // β: seconds to start a step
};

struct PlatformProblem {
  Platform platform;
  Matrix bytes;  // bytes[i][j]: whole bytes sender i owes receiver j
};

// d = min(d1, d2, D): the speed of every flow.
double flow_rate(const Platform& platform);

// k = min(n1, n2, ⌊D/d⌋): the most flows that fit the backbone and the clusters.
int derive_k(const Platform& platform, std::size_t senders, std::size_t receivers);

// The normalized problem: times = bytes/d, β = step start-up, k derived.
Problem normalize(const PlatformProblem& problem);

// Maps a schedule of `normalize(problem)` back to whole bytes and seconds. Each transfer's
// cut points move to whole bytes (a piece that rounds to nothing is dropped, and with it
// a step left empty); every (sender, receiver) still adds up to its exact byte count, and
// durations are recomputed as bytes/d.
Schedule to_bytes(const Schedule& in_time, const PlatformProblem& problem);

}  // namespace baton::schedule::kpbs
