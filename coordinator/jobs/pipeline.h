// Pipelined dataflow (docs/collectives.md, "Pipelined trees"): every task of a plan cut
// into segments, so that a relay receives segment s + 1 while it combines and forwards
// segment s, instead of storing and forwarding whole messages. The cut is the planner's:
// the agents run the segments as the ordinary tasks they are, each a flow of its own on
// the node's kept connection to its peer (docs/runtime.md, "Kept connections").
#pragma once

#include "coordinator/jobs/collective_model.h"
#include "coordinator/jobs/dataflow.h"

#include <cstddef>
#include <cstdint>

namespace baton::jobs {

// Every task of `plan` cut into `segments` tasks on consecutive pieces of its bytes, each a
// whole number of `element` bytes (piece j of a task of e elements holds elements
// [⌊e·j/S⌋, ⌊e·(j+1)/S⌋)). Piece j of a task waits for piece j of every task the task
// waited for, so tasks that move the same bytes in the same order (a tree's chain of
// receive, combine and send) pipeline. A node's list keeps its tasks' order, each task's
// pieces in a row. REQUIRES: every task's length is a multiple of `element` and holds at
// least `segments` elements.
DataflowPlan segmented(const DataflowPlan& plan, std::size_t segments, std::uint64_t element);

// Reorders every node's sends (the agent starts them one at a time in list order) by when
// the tasks each waits for are predicted to end, and sends ready together by segment, so
// that a send whose input comes late does not hold back one that could go: predicted,
// reordered, and kept while the prediction improves. Returns the prediction of the plan
// it leaves.
double order_sends_by_readiness(DataflowPlan& plan, const CollectiveModel& model);

struct Pipeline {
  DataflowPlan plan;
  std::size_t segments = 1;
  double predicted_seconds = 0;
};

// Pieces no smaller than this: a segment costs β and a flow's round trip on its own.
inline constexpr std::uint64_t min_segment_bytes = 64 * 1024;

// The plan cut into the number of segments (1, 2, 4, … up to `max_segments`, pieces of at
// least min_segment_bytes, at most max_tasks tasks on any node) that the event simulation
// predicts fastest: β per segment against the pipeline's fill.
Pipeline fastest_pipeline(const DataflowPlan& plan, std::uint64_t element, const CollectiveModel& model,
                          std::size_t max_segments, std::size_t max_tasks);

}  // namespace baton::jobs
