// The plan's prediction of a dataflow step (docs/collectives.md, "From the model to the
// nodes"): a simulation of exactly the plan's tasks as the agents run them, with the bytes
// as a fluid.
//
// Each node p has a link of rate r_p each way (full duplex). The transfers moving at a
// moment share the links max-min fairly: no sender sends faster than r_p in all, no
// receiver takes in more than r_q, and what one flow cannot use goes to the others (the
// agents pace a node's sends together at r_p and its reads at r_p, and TCP hands what is
// left to the flows that can take it). A transfer costs β before its bytes move (the flow's
// begin and acknowledgement) and moves at most min(r_p, r_q).
//
// As the agents do: a send starts once the tasks it waits for are done and fewer than
// `sends_at_once` of the node's earlier sends (in list order) are unfinished; its bytes
// move once the receive's own waits are done too. A node combines one task at a time (one
// worker), in the order they became ready. (The 1-port model, sends_at_once = 1, leaves a
// fast node sending to a slow one with most of its link idle: with several sends at once
// the other flows take what the slow receiver cannot.)
#pragma once

#include "coordinator/collectives/collective_model.h"
#include "coordinator/collectives/dataflow.h"

#include <cstddef>

namespace baton::collectives {

// Sets every task's planned_start and planned_end (seconds after the release), and each
// transfer's planned_rate (the fastest its share of the links lets it move), and returns
// the latest end. Throws error::Bug naming a task if the plan can never finish (a
// dependency cycle, a task waiting for one that does not exist, a send without its receive).
// REQUIRES: sends_at_once >= 1.
double predict(DataflowPlan& plan, const CollectiveModel& model, std::size_t sends_at_once);

}  // namespace baton::collectives
