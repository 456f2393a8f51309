#include "coordinator/jobs/dataflow_timing.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <stdexcept>
#include <tuple>

namespace baton::jobs {
namespace {

using TaskKey = std::pair<std::string, std::uint32_t>;  // node, task id

// A combine, or a transfer (a send and its receive, which start and end together).
struct Event {
  std::vector<DataflowTask*> tasks;
  std::vector<std::size_t> after;  // events that must end first
  double seconds = 0;
  double start = 0;
};

std::string where(const TaskKey& key) { return key.first + "'s task " + std::to_string(key.second); }

}  // namespace

double predict(DataflowPlan& plan, const CollectiveModel& model) {
  std::vector<Event> events;
  std::map<TaskKey, std::size_t> event_of;
  std::map<std::uint64_t, std::size_t> transfer_event;
  for (auto& [node, tasks] : plan) {
    for (DataflowTask& t : tasks) {
      std::size_t e = events.size();
      if (t.kind != TaskKind::combine) {
        const auto [it, fresh] = transfer_event.emplace(t.transfer, events.size());
        e = it->second;
        if (fresh) events.emplace_back();
      } else {
        events.emplace_back();
      }
      events[e].tasks.push_back(&t);
      event_of[{node, t.id}] = e;
      if (t.kind == TaskKind::send) events[e].seconds = model.transfer_seconds(node, t.peer, t.region.length);
      if (t.kind == TaskKind::combine) {
        events[e].seconds = model.combine_seconds(node, t.output.length, t.inputs.size());
      }
    }
  }
  for (auto& [node, tasks] : plan) {
    std::optional<std::size_t> previous_send;
    for (const DataflowTask& t : tasks) {
      const std::size_t e = event_of.at({node, t.id});
      for (const std::uint32_t a : t.after) {
        const auto found = event_of.find({node, a});
        if (found == event_of.end()) {
          throw std::logic_error("plan compiler: " + where({node, t.id}) + " waits for task " + std::to_string(a) +
                                 ", which does not exist");
        }
        events[e].after.push_back(found->second);
      }
      if (t.kind == TaskKind::send) {
        if (previous_send) events[e].after.push_back(*previous_send);
        previous_send = e;
      }
    }
  }
  for (const Event& e : events) {
    if (e.tasks.size() == 1 && e.tasks.front()->kind != TaskKind::combine) {
      throw std::logic_error("plan compiler: transfer " + std::to_string(e.tasks.front()->transfer) +
                             " has no matching send or receive");
    }
  }
  // Kahn's order: each event starts when the last of those it waits for ends.
  std::vector<std::size_t> waiting(events.size());
  std::vector<std::vector<std::size_t>> next(events.size());
  for (std::size_t e = 0; e < events.size(); ++e) {
    waiting[e] = events[e].after.size();
    for (const std::size_t a : events[e].after) next[a].push_back(e);
  }
  std::deque<std::size_t> ready;
  for (std::size_t e = 0; e < events.size(); ++e) {
    if (waiting[e] == 0) ready.push_back(e);
  }
  std::size_t done = 0;
  double makespan = 0;
  while (!ready.empty()) {
    const std::size_t e = ready.front();
    ready.pop_front();
    ++done;
    const double end = events[e].start + events[e].seconds;
    makespan = std::max(makespan, end);
    for (DataflowTask* t : events[e].tasks) {
      t->planned_start = events[e].start;
      t->planned_end = end;
    }
    for (const std::size_t n : next[e]) {
      events[n].start = std::max(events[n].start, end);
      if (--waiting[n] == 0) ready.push_back(n);
    }
  }
  if (done != events.size()) {
    for (auto& [key, e] : event_of) {
      if (waiting[e] > 0) throw std::logic_error("plan compiler: the plan deadlocks at " + where(key));
    }
  }
  return makespan;
}

}  // namespace baton::jobs
