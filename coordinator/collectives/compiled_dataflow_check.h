// An independent check of a collective's dataflow plans (reduce, all-reduce, multicast)
// before they are sent: it reads only the agents' protocol Plans and the job, and shares no
// code with the compilers. It runs the plans symbolically, tracking which node's data (or
// which bytes of which source file) every region of every object holds, and checks:
//  - structure: one step per node, unique task ids, waits on existing tasks, every send
//    chunk matched by exactly one receive chunk on its peer with the same ranges, incoming
//    streams that do not overlap, combines of equal, element-aligned regions of the job's
//    dtype and op;
//  - the plans can run: no cycle through waits, sends in list order and transfers (a
//    deadlock);
//  - no race: two tasks of a node that touch overlapping bytes of one object, one of them
//    writing, are ordered by the plans (through waits, send order and transfers);
//  - the result: a reduce's root (every node, for an all-reduce) ends with the whole array
//    combined from every node's data exactly once; every destination of a multicast
//    receives its message exactly once, whole, and no other node receives it.
#pragma once

#include "coordinator/collectives/collective_job.h"
#include "protocol/baton.pb.h"

#include <map>
#include <string>
#include <vector>

namespace baton::collectives {

// Empty when the plans are sound, else what is wrong (at most 20 lines). `job` has its
// message lengths resolved.
std::vector<std::string> check_dataflow_plans(const CollectiveJob& job,
                                              const std::map<std::string, protocol::Plan>& plans);

}  // namespace baton::collectives
