// Pipelined dataflow (docs/collectives.md, "Pipelined trees"): every task of a plan cut
// into segments, so that a relay receives segment s + 1 while it combines and forwards
// segment s, instead of storing and forwarding whole messages. The cut is the planner's:
// the agents run the segments as the ordinary tasks they are, each a flow of its own on
// the node's kept connection to its peer (docs/runtime.md, "Kept connections").
#pragma once

#include "coordinator/collectives/collective_model.h"
#include "coordinator/collectives/dataflow.h"

#include <cstddef>
#include <cstdint>

namespace baton::collectives {

// Every task of `plan` cut into pieces of about L / `segments` bytes, L the longest task's
// length: the longest tasks into `segments`, a task of a quarter that length into a
// quarter as many (at least one), so that a plan of unequal shards pipelines its large ones
// without cutting its small ones below what a piece is worth. Each piece holds whole
// `element`s (piece j of S_t of a task of e elements holds elements [⌊e·j/S_t⌋,
// ⌊e·(j+1)/S_t⌋)). Piece j of a task waits for piece j of every task of its length it waited
// for, so tasks that move the same bytes in the same order (a tree's chain of receive,
// combine and send; a shard's folds and all-gather) pipeline; it waits for every piece of a
// task of another length. A node's list keeps its tasks' order, each task's pieces in a row.
// REQUIRES: every task's length is a non-zero multiple of `element`.
DataflowPlan segmented(const DataflowPlan& plan, std::size_t segments, std::uint64_t element);

// Reorders every node's sends (the agent starts them in list order, `sends_at_once` at most
// unfinished ahead of the next) by when
// the tasks each waits for are predicted to end, and sends ready together by segment, so
// that a send whose input comes late does not hold back one that could go: predicted,
// reordered, and kept while the prediction improves. Returns the prediction of the plan
// it leaves.
double order_sends_by_readiness(DataflowPlan& plan, const CollectiveModel& model, std::size_t sends_at_once);

struct Pipeline {
  DataflowPlan plan;
  std::size_t segments = 1;
  std::size_t sends_at_once = 1;
  double predicted_seconds = 0;
};

// The most sends a plan lets a node have unfinished at once. Each holds at most one of the
// agent's pool buffers while it reads a chunk (64 by default, shared with its receives):
// eight leave most of the pool to what arrives.
inline constexpr std::size_t most_sends_at_once = 8;

// Pieces no smaller than this unless a compiler says otherwise: a segment costs β and a
// flow's round trip on its own.
inline constexpr std::uint64_t min_segment_bytes = 64 * 1024;

// The plan cut into the number of segments (1, 2, 4, … up to `max_segments`, the longest
// task's pieces of at least `min_piece` bytes, at most max_tasks tasks on any node) and run
// with the number of sends at once (1, or max_sends_at_once) that the simulation predicts
// fastest: β per segment against the pipeline's fill, one send port against a link shared
// by several. Then, if the simulation predicts it faster, every node that is the slower end
// of all its sends holds only 2, 3 or 4 of them at once (each waits for the one that many
// places before it): a slow node's flows into fast ones get only their share of the fast
// receivers' links, so it needs a few at once to fill its own, but with all eight at once
// its first pieces arrive after eight pieces' time, and a slow node that also receives
// (an all-gather's result) idles that long (docs/collectives.md, "Pipelined trees and
// shards").
Pipeline fastest_pipeline(const DataflowPlan& plan, std::uint64_t element, const CollectiveModel& model,
                          std::size_t max_segments, std::size_t max_tasks, std::size_t max_sends_at_once,
                          std::uint64_t min_piece);

}  // namespace baton::collectives
