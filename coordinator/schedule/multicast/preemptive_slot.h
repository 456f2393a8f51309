// Where the preemption optimization of Section 5 puts a new send in the sender's list
// (procedures UpdateSenderState, Figure 13, and SendAvailable, Figure 16).
//
// The three rules of Section 5:
//  1. sends keep their order: the new send goes after the sender's last send;
//  2. a relay sends m_k only after its receive of m_k: the new send also goes after it;
//  3. the new send must not delay the receive it preempts (Equation 10).
// The scan starts at the later of those two tasks (the "target") and walks the receives
// that follow it (by rule 1 only receives follow the last send). It stops before the first
// receive that waits long enough for the send to fit before the message arrives; otherwise
// it moves the target past that receive.
#pragma once

#include "coordinator/schedule/multicast/schedule.h"

#include <cstddef>
#include <limits>

namespace baton::schedule::multicast {

inline constexpr std::size_t kListHead = std::numeric_limits<std::size_t>::max();

struct SendSlot {
  std::size_t position = 0;  // insert the send before tasks[position] (== size: append)
  double start = 0;          // the end of the task before it (0 at the head of the list)
};

// `target` is the index of the later of the sender's last send and its receive of the
// message, or kListHead when the sender is the source and has not sent yet.
//
// Decision: Equation 10, (CompletionTime(task[k]) - R) - CompletionTime(task[j]) >= S, is
// tested as end(task[j]) + S <= start(task[k]), which is the same inequality written with
// the quantities the simulator computes, so floating-point rounding cannot let a send
// that the simulator would see delaying the receive slip in.
SendSlot preemptive_send_slot(const TaskList& tasks, std::size_t target, double send_duration);

}  // namespace baton::schedule::multicast
