#include "coordinator/schedule/multicast/simulator.h"

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>

namespace baton::schedule::multicast {
namespace {

// (multicast, receiver, sender): the messages of one channel, matched first-in first-out.
using Channel = std::tuple<MulticastId, NodeId, NodeId>;

struct ChannelState {
  std::deque<double> send_ends;  // sent but not yet taken by a receive
  bool receiver_waiting = false;
};

class Run {
 public:
  Run(const Problem& problem, const std::vector<TaskList>& tasks)
      : problem_(problem), tasks_(tasks), next_(tasks.size(), 0), free_(tasks.size(), 0.0) {
    result_.times.resize(tasks.size());
    for (NodeId i = 0; i < tasks.size(); ++i) result_.times[i].resize(tasks[i].size());
  }

  Simulation run() {
    if (tasks_.size() != problem_.node_count()) {
      result_.cannot_run = "the schedule has " + std::to_string(tasks_.size()) + " task lists for " +
                           std::to_string(problem_.node_count()) + " nodes";
      return std::move(result_);
    }
    if (std::optional<error::Refusal> bad = check_references()) {
      result_.cannot_run = std::move(bad);
      return std::move(result_);
    }
    for (NodeId i = 0; i < tasks_.size(); ++i) ready_.push_back(i);
    while (!ready_.empty()) {
      const NodeId i = ready_.front();
      ready_.pop_front();
      advance(i);
    }
    for (NodeId i = 0; i < tasks_.size(); ++i) {
      if (next_[i] < tasks_[i].size()) {
        result_.cannot_run = describe(i, next_[i], tasks_[i][next_[i]]) +
                             " never gets its message (no matching send, or a cycle of waits)";
        return std::move(result_);
      }
    }
    return std::move(result_);
  }

 private:
  std::optional<error::Refusal> check_references() const {
    for (NodeId i = 0; i < tasks_.size(); ++i) {
      for (std::size_t t = 0; t < tasks_[i].size(); ++t) {
        const Task& task = tasks_[i][t];
        if (task.peer >= tasks_.size() || task.peer == i || task.multicast >= problem_.multicasts.size()) {
          return describe(i, t, task) + ": peer or multicast out of range";
        }
      }
    }
    return std::nullopt;
  }

  // Executes node i's tasks until it must wait for a message or its list ends.
  void advance(NodeId i) {
    const TaskList& list = tasks_[i];
    while (next_[i] < list.size()) {
      const Task& task = list[next_[i]];
      TaskTimes& times = result_.times[i][next_[i]];
      if (task.op == Op::send) {
        times.start = free_[i];
        times.end = times.start + send_overhead(problem_, i, task.multicast);
        times.arrival = times.end;
        ChannelState& channel = channels_[Channel{task.multicast, task.peer, i}];
        channel.send_ends.push_back(times.end);
        if (channel.receiver_waiting) {
          channel.receiver_waiting = false;
          ready_.push_back(task.peer);
        }
      } else {
        ChannelState& channel = channels_[Channel{task.multicast, i, task.peer}];
        if (channel.send_ends.empty()) {
          channel.receiver_waiting = true;
          return;
        }
        times.arrival = channel.send_ends.front() + link_time(problem_, task.peer, i, task.multicast);
        channel.send_ends.pop_front();
        times.start = std::max(free_[i], times.arrival);
        times.end = times.start + recv_overhead(problem_, i, task.multicast);
        result_.completion_time = std::max(result_.completion_time, times.end);
      }
      free_[i] = times.end;
      ++next_[i];
    }
  }

  const Problem& problem_;
  const std::vector<TaskList>& tasks_;
  std::vector<std::size_t> next_;  // the index of each node's next task
  std::vector<double> free_;       // when each node finished its last task
  std::map<Channel, ChannelState> channels_;
  std::deque<NodeId> ready_;
  Simulation result_;
};

}  // namespace

Simulation simulate(const Problem& problem, const std::vector<TaskList>& tasks) { return Run(problem, tasks).run(); }

}  // namespace baton::schedule::multicast
