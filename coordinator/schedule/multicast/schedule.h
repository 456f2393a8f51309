// A multiple multicast schedule: every node's task list (Section 3.1), executed in order.
//
// A task (op, i, j, k) is node i sending m_k to j or receiving m_k from j. Times follow the
// cost model of problem.h: a send lasts S(i, l_k); a receive starts when the node is free
// and the message has arrived (never earlier than arrival) and lasts R(i, l_k). A node
// idles between tasks while it waits for a message.
#pragma once

#include "coordinator/schedule/multicast/problem.h"

#include <cstddef>
#include <string>
#include <vector>

namespace baton::schedule::multicast {

enum class Op { send, recv };

struct Task {
  Op op = Op::send;
  NodeId peer = 0;  // the receiver of a send, the sender of a receive
  MulticastId multicast = 0;
  double start = 0;
  double end = 0;
};

using TaskList = std::vector<Task>;

// "node 2 task 0 (send to 3, multicast 1)": task `index` of `node`'s list, as the
// simulator's and the validator's errors name it.
std::string describe(NodeId node, std::size_t index, const Task& task);

// One delivery, the paper's (i, j, k): sender P_i gives m_k to receiver P_j.
struct Transfer {
  NodeId sender = 0;
  NodeId receiver = 0;
  MulticastId multicast = 0;
  friend bool operator==(const Transfer&, const Transfer&) = default;
};

struct Schedule {
  std::vector<TaskList> tasks;            // tasks[i]: node i's task list, in execution order
  std::vector<Transfer> selection_order;  // the deliveries in the order the algorithm chose
                                          // them (the sequences of the paper's Section 6)
};

// The completion time of the multiple multicast: the latest end of any receive (0 when
// nothing is delivered).
double completion_time(const std::vector<TaskList>& tasks);

}  // namespace baton::schedule::multicast
