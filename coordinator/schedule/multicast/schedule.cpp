#include "coordinator/schedule/multicast/schedule.h"

#include <algorithm>

namespace baton::schedule::multicast {

double completion_time(const std::vector<TaskList>& tasks) {
  double latest = 0;
  for (const TaskList& list : tasks) {
    for (const Task& t : list) {
      if (t.op == Op::recv) latest = std::max(latest, t.end);
    }
  }
  return latest;
}

std::string describe(NodeId node, std::size_t index, const Task& task) {
  return "node " + std::to_string(node) + " task " + std::to_string(index) + " (" +
         (task.op == Op::send ? "send to " : "recv from ") + std::to_string(task.peer) + ", multicast " +
         std::to_string(task.multicast) + ")";
}

}  // namespace baton::schedule::multicast
