// The event simulator of the cost model (Section 2): the times of every task, for any
// per-node task lists.
//
// Each node executes its list in order. A send starts when the node is free and lasts
// S(i, l_k) (non-blocking: the node is then free again). Its message reaches the receiver
// X(i, j)·l_k later. A receive of m_k from P_j waits for the matching send (the n-th
// receive of (k, from j) at node i takes the n-th send of (k, to i) at node j), starts at
// max(node free, arrival) and lasts R(i, l_k) (blocking).
//
// The simulator knows nothing about who may relay what; it only runs the lists. It is the
// reference the validator compares the schedulers' own bookkeeping against.
#pragma once

#include "coordinator/schedule/multicast/problem.h"
#include "coordinator/schedule/multicast/schedule.h"
#include "error/refusal.h"

#include <optional>
#include <string>
#include <vector>

namespace baton::schedule::multicast {

struct TaskTimes {
  double start = 0;
  double end = 0;
  double arrival = 0;  // receives: when the message reached the node's buffer; sends: end
};

struct Simulation {
  std::vector<std::vector<TaskTimes>> times;  // times[i][t] for tasks[i][t]
  double completion_time = 0;                 // latest end of any receive
  // Nothing when the lists ran; else why they cannot (a bad index, or a receive whose
  // message never comes: deadlock or no matching send).
  std::optional<error::Refusal> cannot_run;
};

// Runs the lists; the start and end already stored in the tasks are ignored. `tasks` must
// hold one list per node of `problem`.
Simulation simulate(const Problem& problem, const std::vector<TaskList>& tasks);

}  // namespace baton::schedule::multicast
