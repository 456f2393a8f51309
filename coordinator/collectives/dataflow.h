// A collective's plan as dataflow tasks (docs/collectives.md, "Tasks"): per node, sends,
// receives and combines with the tasks each waits for. The compilers of each job kind build
// it with DataflowBuilder; dataflow_timing.h predicts when each task runs; the agents get
// it as one Step of protocol Tasks (to_agent_plans).
#pragma once

#include "coordinator/collectives/collective_job.h"
#include "coordinator/collectives/collective_model.h"
#include "protocol/baton.pb.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace baton::collectives {

// A byte range of one of a node's objects: a file, or "scratch:NAME".
struct Region {
  std::string object;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

enum class TaskKind { send, receive, combine };
std::string_view name(TaskKind kind);  // "send", "receive", "combine"

struct DataflowTask {
  TaskKind kind = TaskKind::send;
  std::uint32_t id = 0;              // unique within the node's list, from 1
  std::vector<std::uint32_t> after;  // this node's tasks that must be done first
  // A send reads `region` and a receive writes it; `peer` is the other end and `transfer`
  // numbers the transfer in the whole job (the send's and the receive's are equal).
  std::string peer;
  Region region;
  std::uint64_t transfer = 0;
  Region peer_region;               // where the bytes land (send) or come from (receive) on the peer
  std::uint64_t stream_offset = 0;  // the chunk's place in its receiver's incoming stream
  // A combine: output = inputs[0] ⊕ inputs[1] ⊕ … in this order; folds[i] names the node
  // whose data (alone, or combined with what it received) inputs[i] holds.
  std::vector<Region> inputs;
  std::vector<std::string> folds;
  Region output;
  // Which segment of its message the task moves (pipeline.h); 0 when messages are whole.
  std::uint32_t segment = 0;
  // The plan's prediction, seconds after the step's release (dataflow_timing.h), and for a
  // transfer the fastest its bytes move in it (bytes/s; 0 before the prediction).
  double planned_start = 0;
  double planned_end = 0;
  double planned_rate = 0;

  std::uint64_t bytes() const { return kind == TaskKind::combine ? output.length : region.length; }
};

// Every node's tasks, in list order (a node starts its sends in this order).
using DataflowPlan = std::map<std::string, std::vector<DataflowTask>>;

class DataflowBuilder {
 public:
  // A transfer of `source` on `from` into `destination` on `to`: a send appended to from's
  // list, after `send_after`, and a receive appended to to's list. Returns the send's and
  // the receive's ids.
  std::pair<std::uint32_t, std::uint32_t> transfer(const std::string& from, const Region& source,
                                                   std::vector<std::uint32_t> send_after, const std::string& to,
                                                   const Region& destination);
  // A combine on `node` after `after`; returns its id.
  std::uint32_t combine(const std::string& node, std::vector<Region> inputs, std::vector<std::string> folds,
                        const Region& output, std::vector<std::uint32_t> after);

  DataflowPlan take() { return std::move(plan_); }

 private:
  DataflowTask& add(const std::string& node, TaskKind kind, std::vector<std::uint32_t> after);

  DataflowPlan plan_;
  std::uint64_t transfers_ = 0;
  std::map<std::string, std::uint64_t> stream_end_;  // per receiver
};

// Each node's Plan: one step (index 0) listing its tasks, kind = the job's, k =
// `sends_at_once` (how many sends it may have unfinished at once, dataflow_timing.h),
// node_rate = its r_p (its sends together, and its receives together, stay within it). Each
// flow's rate is min(r_p, r_q) of its two ends, and at most kShareSlack times the fastest
// the prediction lets it move: flows that share a slow receiver's link are paced near their share
// instead of each pushing at the receiver's whole rate (eight owners' all-gather flows into
// one slow node overflowed its link's queue: TCP's losses and back-offs made rate-rsag
// 1.28x its prediction on fig8 with 100-packet queues). The fastest, not the mean: paced at
// 1.2x its mean share, a flow whose link freed up early could not take it (an snf reduce
// into a slow root measured 1.25x its plan in the sanitizer build). That rate is the ceiling: the
// agent paces a send toward its task's planned_end, at its planned mean when on time
// (docs/transport.md, "Pacing toward a planned end"). The job's ids and the peers' data
// addresses are filled in when the plans are sent.
inline constexpr double kShareSlack = 1.2;
std::map<std::string, protocol::Plan> to_agent_plans(const DataflowPlan& plan, const CollectiveJob& job,
                                                     const CollectiveModel& model, std::size_t sends_at_once,
                                                     double predicted_seconds);

}  // namespace baton::collectives
