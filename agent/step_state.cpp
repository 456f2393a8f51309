#include "agent/step_state.h"

#include "agent/agent_metrics.h"

namespace baton::agent {

StepState::StepState(const asio::any_io_executor& executor, std::uint64_t job_number, std::uint32_t index,
                     const protocol::Step* planned)
    : job(job_number), step(index), changed(executor) {
  if (planned == nullptr) return;
  dataflow = planned->tasks_size() > 0;
  if (dataflow) {
    std::map<std::uint32_t, std::size_t> positions;
    for (const protocol::Task& planned_task : planned->tasks()) {
      Task& task = tasks.emplace_back();
      task.id = planned_task.id();
      task.planned_start = planned_task.planned_start();
      task.planned_end = planned_task.planned_end();
      if (planned_task.has_flow()) task.flow = &planned_task.flow();
      if (planned_task.has_combine()) task.combine = &planned_task.combine();
      for (std::uint32_t after : planned_task.after()) task.after.push_back(positions.at(after));
      positions.emplace(task.id, tasks.size() - 1);
    }
  } else {
    for (const protocol::Flow& flow : planned->flows()) {
      Task& task = tasks.emplace_back();
      task.id = static_cast<std::uint32_t>(tasks.size() - 1);
      task.flow = &flow;
    }
  }
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    if (!tasks[t].receive()) continue;
    for (const protocol::Chunk& chunk : tasks[t].flow->chunks()) {
      Incoming& in = incoming.emplace_back();
      in.chunk = &chunk;
      in.task = t;
      ++tasks[t].chunks_left;
      by_stream.emplace(std::pair{chunk.stream_offset(), chunk.length()}, incoming.size() - 1);
    }
  }
}

void StepState::cap_links(double bytes_per_second) {
  const transport::PacerOptions cap{.rate_bytes_per_second = static_cast<std::uint64_t>(bytes_per_second),
                                    .burst_bytes = 0};
  const clock::time_point now = clock::now();
  send_cap.emplace(cap, now);
  receive_cap.emplace(cap, now);
  for (Incoming& in : incoming)
    in.pacer = std::make_unique<transport::SteadyPacer>(transport::PacerOptions{}, &*receive_cap, now);
}

bool StepState::ready(std::size_t task) const {
  for (std::size_t other : tasks[task].after) {
    if (tasks[other].phase != Task::Phase::done) return false;
  }
  return true;
}

void StepState::finish(std::size_t task) {
  tasks[task].phase = Task::Phase::done;
  tasks[task].end = clock::now();
  changed.notify();
}

void StepState::fail(std::string why) {
  if (error.empty()) error = std::move(why);
  failed = true;
  changed.notify();
}

bool StepState::complete() const {
  if (!error.empty()) return true;
  for (const Task& task : tasks) {
    if (task.phase != Task::Phase::done) return false;
  }
  return true;
}

std::string StepState::label(std::size_t t) const {
  const Task& task = tasks[t];
  std::string label = "task " + std::to_string(task.id);
  if (task.combine != nullptr) return label + " (combine into " + task.combine->output().object() + ")";
  if (task.flow == nullptr) return label;
  const std::string object = task.flow->chunks_size() == 0 ? std::string()
                             : task.send()                 ? " from " + task.flow->chunks(0).src_file()
                                                           : " into " + task.flow->chunks(0).dst_file();
  return label + (task.send() ? " (send to " : " (receive from ") + task.flow->peer() + object + ")";
}

std::vector<protocol::TaskTiming> StepState::timings() const {
  std::vector<protocol::TaskTiming> timings;
  const auto seconds = [this](clock::time_point at) { return std::chrono::duration<double>(at - released).count(); };
  for (const Task& task : tasks) {
    if (task.phase != Task::Phase::done) continue;
    protocol::TaskTiming& timing = timings.emplace_back();
    timing.set_id(task.id);
    timing.set_start(seconds(task.start));
    timing.set_end(seconds(task.end));
    timing.set_bytes(task.bytes);
  }
  return timings;
}

bool StepState::flow_ended(const transport::FlowReport& report) {
  if (metrics) {
    metrics->adjust("baton_agent_flows_active", {{"direction", "received"}}, -1);
    count_flow(*metrics, "received", report.bytes_verified, report.error);
  }
  --flows_receiving;
  if (!over) return true;
  close_files();
  return false;
}

void StepState::finished(const transport::FlowReport& report) {
  if (!flow_ended(report)) return;
  const auto found = by_stream.find({report.flow.offset, report.flow.length});
  if (found == by_stream.end()) return;
  Incoming& in = incoming[found->second];
  if (!in.started || in.done) return;
  Task& task = tasks[in.task];
  if (report.ok()) {
    in.done = true;
    in.checksum = report.checksum;
    task.bytes += in.chunk->length();
    if (--task.chunks_left == 0) finish(in.task);
  } else {
    const std::string where = dataflow ? ", " + label(in.task) : std::string();
    fail("step " + std::to_string(step) + where + ": receiving transfer " + std::to_string(in.chunk->transfer()) +
         " (" + task.flow->peer() + "'s " + in.chunk->src_file() + "): " + report.describe());
  }
  changed.notify();
}

void StepState::finished_pack(const transport::FlowReport& report, const std::vector<std::size_t>& pieces,
                              const ScatterSink& sink) {
  if (!flow_ended(report)) return;
  const std::size_t t = incoming[pieces.front()].task;
  if (!report.ok()) {
    // Name the chunk the flow stopped in.
    std::uint64_t written = sink.written();
    const Incoming* stopped = &incoming[pieces.back()];
    for (std::size_t i : pieces) {
      if (written < incoming[i].chunk->length()) {
        stopped = &incoming[i];
        break;
      }
      written -= incoming[i].chunk->length();
    }
    const std::string where = dataflow ? ", " + label(t) : std::string();
    fail("step " + std::to_string(step) + where + ": receiving transfer " + std::to_string(stopped->chunk->transfer()) +
         " (" + tasks[t].flow->peer() + "'s " + stopped->chunk->src_file() + ", packed with " +
         std::to_string(pieces.size() - 1) + " other chunk(s)): " + report.describe());
    changed.notify();
    return;
  }
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    Incoming& in = incoming[pieces[k]];
    in.done = true;
    in.checksum = sink.checksum(k);
    tasks[t].bytes += in.chunk->length();
    --tasks[t].chunks_left;
  }
  if (tasks[t].chunks_left == 0) finish(t);
  changed.notify();
}

void StepState::close_files() {
  sources.clear();
  if (flows_receiving > 0) return;
  packs.clear();
  for (Incoming& in : incoming) in.sink.reset();
  destinations.clear();
}

}  // namespace baton::agent
