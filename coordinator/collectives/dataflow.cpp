#include "coordinator/collectives/dataflow.h"

#include "error/error.h"

#include <algorithm>
#include <limits>

namespace baton::collectives {
namespace {

void fill(protocol::Region& out, const Region& in) {
  out.set_object(in.object);
  out.set_offset(in.offset);
  out.set_length(in.length);
}

}  // namespace

std::string_view name(TaskKind kind) {
  switch (kind) {
    case TaskKind::send: return "send";
    case TaskKind::receive: return "receive";
    case TaskKind::combine: return "combine";
  }
  return "unknown";
}

DataflowTask& DataflowBuilder::add(const std::string& node, TaskKind kind, std::vector<std::uint32_t> after) {
  std::vector<DataflowTask>& tasks = plan_[node];
  DataflowTask& task = tasks.emplace_back();
  task.kind = kind;
  task.id = static_cast<std::uint32_t>(tasks.size());
  task.after = std::move(after);
  return task;
}

std::pair<std::uint32_t, std::uint32_t> DataflowBuilder::transfer(const std::string& from, const Region& source,
                                                                  std::vector<std::uint32_t> send_after,
                                                                  const std::string& to, const Region& destination) {
  if (source.length != destination.length || source.length == 0) {
    throw error::Bug("plan compiler: a transfer from " + from + " to " + to + " of unequal or empty regions");
  }
  std::uint64_t& stream = stream_end_[to];
  if (source.length > std::numeric_limits<std::uint64_t>::max() - stream) {
    throw error::InvalidInput("the stream of node '" + to + "' exceeds 2^64 bytes");
  }
  const std::uint64_t transfer = transfers_++;
  DataflowTask& send = add(from, TaskKind::send, std::move(send_after));
  send.peer = to;
  send.region = source;
  send.peer_region = destination;
  send.transfer = transfer;
  send.stream_offset = stream;
  const std::uint32_t send_id = send.id;
  DataflowTask& receive = add(to, TaskKind::receive, {});
  receive.peer = from;
  receive.region = destination;
  receive.peer_region = source;
  receive.transfer = transfer;
  receive.stream_offset = stream;
  stream += source.length;
  return {send_id, receive.id};
}

std::uint32_t DataflowBuilder::combine(const std::string& node, std::vector<Region> inputs,
                                       std::vector<std::string> folds, const Region& output,
                                       std::vector<std::uint32_t> after) {
  DataflowTask& task = add(node, TaskKind::combine, std::move(after));
  task.inputs = std::move(inputs);
  task.folds = std::move(folds);
  task.output = output;
  return task.id;
}

std::map<std::string, protocol::Plan> to_agent_plans(const DataflowPlan& plan, const CollectiveJob& job,
                                                     const CollectiveModel& model, std::size_t sends_at_once,
                                                     double predicted_seconds) {
  const auto rate = [&](const std::string& p, const std::string& q) { return model.flow_rate(p, q); };
  std::map<std::string, protocol::Plan> plans;
  for (const std::string& node : job.nodes) {
    protocol::Plan& out = plans[node];
    out.set_kind(std::string(name(job.kind)));
    out.set_k(static_cast<std::int32_t>(sends_at_once));
    out.set_node_rate(model.nodes.at(node).rate);
    protocol::Step& step = *out.add_steps();
    step.set_index(0);
    step.set_predicted_seconds(predicted_seconds);
    const auto tasks = plan.find(node);
    if (tasks == plan.end()) continue;
    for (const DataflowTask& t : tasks->second) {
      protocol::Task& task = *step.add_tasks();
      task.set_id(t.id);
      for (const std::uint32_t a : t.after) task.add_after(a);
      task.set_planned_start(t.planned_start);
      task.set_planned_end(t.planned_end);
      if (t.kind == TaskKind::combine) {
        protocol::Combine& c = *task.mutable_combine();
        c.set_dtype(job.data.dtype);
        c.set_op(job.op);
        for (const Region& r : t.inputs) fill(*c.add_inputs(), r);
        fill(*c.mutable_output(), t.output);
        continue;
      }
      const bool send = t.kind == TaskKind::send;
      protocol::Flow& flow = *task.mutable_flow();
      flow.set_send(send);
      flow.set_peer(t.peer);
      const double link = send ? rate(node, t.peer) : rate(t.peer, node);
      flow.set_rate(t.planned_rate > 0 ? std::min(link, kShareSlack * t.planned_rate) : link);
      protocol::Chunk& chunk = *flow.add_chunks();
      const Region& source = send ? t.region : t.peer_region;
      const Region& destination = send ? t.peer_region : t.region;
      chunk.set_transfer(t.transfer);
      chunk.set_src_file(source.object);
      chunk.set_src_offset(source.offset);
      chunk.set_dst_file(destination.object);
      chunk.set_dst_offset(destination.offset);
      chunk.set_length(source.length);
      chunk.set_stream_offset(t.stream_offset);
    }
  }
  return plans;
}

}  // namespace baton::collectives
