// Buffered multicast (Gonzalez, the buffered multimessage multicasting paper): Procedures
// Coloring and Ordered-Coloring schedule every (message, destination) pair into synchronous
// rounds in which a node sends at most one message (to any number of its destinations) and
// receives at most l (`buffers`). The paper's model is lockstep rounds, so each round with
// sends is one step of the plan, released behind the coordinator's barrier like a
// redistribution's; rounds in which nodes only drain their buffers need no step.
//
// A round's flows share their nodes' links: a node sending to s destinations and receiving
// from q senders in a round gives each flow r_p / s (r_p / q) of its rate, so a flow runs at
// min(r_p / s_p, r_q / q_q), and the step is predicted to take β + its longest flow's time.
#include "coordinator/collectives/collective_compilers.h"
#include "coordinator/schedule/buffered_multicast/checked.h"

#include <algorithm>
#include <map>

namespace baton::collectives {

namespace {

// Each flow of a round as the report's tasks: a send on its sender and a receive on its
// receiver, both planned from the round's start to β + bytes / rate. An agent numbers a
// lockstep step's flows in its plan's order, which agent_plans.cpp makes the flows' order
// sorted (stably) by sender: the same numbering here lets the report put each agent's
// measured times beside its flows.
void add_planned_tasks(jobs::StepPlan& step, const std::vector<std::string>& nodes, double beta) {
  std::vector<const jobs::Flow*> flows;
  for (const jobs::Flow& f : step.flows) flows.push_back(&f);
  std::ranges::stable_sort(flows, [](const jobs::Flow* a, const jobs::Flow* b) { return a->sender < b->sender; });
  std::map<std::size_t, std::uint32_t> next_id;  // per node
  for (const jobs::Flow* f : flows) {
    const double end = beta + static_cast<double>(f->bytes) / f->rate;
    step.tasks.push_back({nodes[f->sender], next_id[f->sender]++, "send", nodes[f->receiver], {}, f->bytes, 0, end});
    step.tasks.push_back(
        {nodes[f->receiver], next_id[f->receiver]++, "receive", nodes[f->sender], {}, f->bytes, 0, end});
  }
}

}  // namespace

jobs::CompiledPlan compile_buffered_multicast(const CollectiveJob& job, const CollectiveModel& model) {
  namespace bm = schedule::buffered_multicast;
  const std::vector<std::string>& nodes = job.nodes;
  const auto index = [&](const std::string& node) {
    return static_cast<std::size_t>(std::ranges::find(nodes, node) - nodes.begin());
  };
  bm::Problem problem{.processors = nodes.size(), .buffers = job.buffers, .messages = {}};
  jobs::CompiledPlan out;
  out.kind = job.kind;
  out.algorithm = name(job.algorithm);
  out.step_startup = model.beta;
  out.clusters = {nodes, nodes};
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> transfer_of;  // (message, destination) → transfer
  for (std::size_t k = 0; k < job.messages.size(); ++k) {
    const Message& m = job.messages[k];
    bm::Message message{.source = static_cast<bm::ProcessorId>(index(m.source)), .destinations = {}};
    for (const std::string& d : m.destinations) {
      message.destinations.push_back(static_cast<bm::ProcessorId>(index(d)));
      transfer_of[{k, index(d)}] = out.transfers.size();
      out.transfers.push_back({m.source, m.file, m.offset, *m.length, d, m.dst_file, 0});
    }
    problem.messages.push_back(std::move(message));
  }
  const bm::CheckedPlan plan = bm::checked_plan(problem, buffered_multicast_scheduler(job.algorithm));

  std::map<std::uint64_t, std::vector<const bm::Send*>> rounds;
  for (const bm::Send& send : plan.schedule.sends) rounds[send.round].push_back(&send);
  for (const auto& [round, sends] : rounds) {
    jobs::StepPlan step;
    std::map<std::size_t, std::size_t> sending, receiving;  // flows per node in the round
    for (const bm::Send* send : sends) {
      const jobs::TransferSpec& first = out.transfers[transfer_of.at({send->message, send->destinations.front()})];
      for (const bm::ProcessorId d : send->destinations) {
        const std::size_t t = transfer_of.at({send->message, d});
        step.flows.push_back({index(first.src_node), d, first.length, {{t, first.src_offset, 0, first.length}}, 0});
        ++sending[index(first.src_node)];
        ++receiving[d];
      }
    }
    std::map<std::size_t, double> busiest;  // per node: its longest flow's time
    for (jobs::Flow& f : step.flows) {
      f.rate = std::min(model.nodes.at(nodes[f.sender]).rate / static_cast<double>(sending[f.sender]),
                        model.nodes.at(nodes[f.receiver]).rate / static_cast<double>(receiving[f.receiver]));
      const double seconds = static_cast<double>(f.bytes) / f.rate;
      busiest[f.sender] = std::max(busiest[f.sender], seconds);
      busiest[f.receiver] = std::max(busiest[f.receiver], seconds);
      step.bytes += f.bytes;
      out.k = std::max<int>({out.k, static_cast<int>(sending[f.sender]), static_cast<int>(receiving[f.receiver])});
    }
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      if (!busiest.contains(n)) continue;
      std::uint64_t bytes = 0;
      for (const jobs::Flow& f : step.flows) bytes += f.sender == n || f.receiver == n ? f.bytes : 0;
      step.nodes.push_back({nodes[n], bytes, model.beta + busiest[n]});
      step.predicted_seconds = std::max(step.predicted_seconds, model.beta + busiest[n]);
    }
    add_planned_tasks(step, nodes, model.beta);
    out.predicted_seconds += step.predicted_seconds;
    out.steps.push_back(std::move(step));
  }
  out.model_seconds = out.predicted_seconds;
  return out;
}

}  // namespace baton::collectives
