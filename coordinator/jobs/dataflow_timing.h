// The plan's prediction of a dataflow step (docs/collectives.md, "From the model to the
// nodes"): an event simulation of exactly the plan's tasks as the agents run them. A
// transfer from p to q takes β + bytes / min(r_p, r_q) and starts once the sender's tasks it
// waits for are done and the sender's previous send has ended (sends serialized per node,
// the 1-port model); a combine takes (inputs − 1) × bytes / c_p once its inputs are there.
// A receiver's link is not shared in this model: two transfers into one node at once each
// run at their own pace (the schedules rarely overlap a node's receives; where they do, the
// prediction is optimistic).
#pragma once

#include "coordinator/jobs/collective_model.h"
#include "coordinator/jobs/dataflow.h"

namespace baton::jobs {

// Sets every task's planned_start and planned_end (seconds after the release) and returns
// the latest end. Throws std::logic_error naming a task if the plan can never finish (a
// dependency cycle, a task waiting for one that does not exist, a send without its receive).
double predict(DataflowPlan& plan, const CollectiveModel& model);

}  // namespace baton::jobs
