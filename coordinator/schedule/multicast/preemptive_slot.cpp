#include "coordinator/schedule/multicast/preemptive_slot.h"

namespace baton::schedule::multicast {

SendSlot preemptive_send_slot(const TaskList& tasks, std::size_t target, double send_duration) {
  double target_end = target == kListHead ? 0.0 : tasks[target].end;
  std::size_t next = target == kListHead ? 0 : target + 1;
  // Figure 13/16's while loop: TimeSpan = start of the next receive - end of the target.
  while (next < tasks.size() && target_end + send_duration > tasks[next].start) {
    target_end = tasks[next].end;
    ++next;
  }
  return {next, target_end};
}

}  // namespace baton::schedule::multicast
