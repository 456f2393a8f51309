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

}  // namespace baton::schedule::multicast
