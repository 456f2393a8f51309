#include "coordinator/schedule/multicast/validator.h"

#include "coordinator/schedule/multicast/simulator.h"

#include <cmath>
#include <map>
#include <sstream>
#include <tuple>

namespace baton::schedule::multicast {
namespace {

constexpr std::size_t kMaxErrors = 20;

std::string format_time(double t) {
  std::ostringstream out;
  out.precision(9);
  out << t;
  return out.str();
}

class Checker {
 public:
  Checker(const Problem& problem, const std::vector<TaskList>& tasks, const ValidationOptions& options)
      : problem_(problem), tasks_(tasks), options_(options) {}

  Validation run() {
    if (tasks_.size() != problem_.node_count()) {
      fail("the schedule has " + std::to_string(tasks_.size()) + " task lists for " +
           std::to_string(problem_.node_count()) + " nodes");
      return std::move(result_);
    }
    if (!check_indices()) return std::move(result_);
    simulation_ = simulate(problem_, tasks_);
    result_.completion_time = simulation_.completion_time;
    check_deliveries();
    check_pairing();
    check_relays();
    check_times();
    return std::move(result_);
  }

 private:
  void fail(std::string message) {
    if (result_.errors.size() < kMaxErrors) result_.errors.push_back(std::move(message));
  }

  bool is_destination(MulticastId k, NodeId node) const {
    for (NodeId d : problem_.multicasts[k].destinations) {
      if (d == node) return true;
    }
    return false;
  }

  bool check_indices() {
    bool ok = true;
    for (NodeId i = 0; i < tasks_.size(); ++i) {
      for (std::size_t t = 0; t < tasks_[i].size(); ++t) {
        const Task& task = tasks_[i][t];
        if (task.peer >= problem_.node_count() || task.peer == i || task.multicast >= problem_.multicasts.size()) {
          fail(describe(i, t, task) + ": peer or multicast out of range");
          ok = false;
        } else if (!std::isfinite(task.start) || !std::isfinite(task.end)) {
          fail(describe(i, t, task) + ": times must be finite");
          ok = false;
        }
      }
    }
    return ok;
  }

  // Every destination receives each of its multicasts exactly once; nobody else does.
  void check_deliveries() {
    std::map<std::pair<MulticastId, NodeId>, int> received;
    for (NodeId i = 0; i < tasks_.size(); ++i) {
      for (std::size_t t = 0; t < tasks_[i].size(); ++t) {
        const Task& task = tasks_[i][t];
        if (task.op != Op::recv) continue;
        if (!is_destination(task.multicast, i)) {
          fail(describe(i, t, task) + ": node " + std::to_string(i) + " is not a destination of multicast " +
               std::to_string(task.multicast));
        }
        ++received[{task.multicast, i}];
      }
    }
    for (MulticastId k = 0; k < problem_.multicasts.size(); ++k) {
      for (NodeId d : problem_.multicasts[k].destinations) {
        const int count = received[{k, d}];
        if (count != 1) {
          fail("node " + std::to_string(d) + " receives multicast " + std::to_string(k) + " " + std::to_string(count) +
               " times, not once");
        }
      }
    }
  }

  // Senders may send m_k; sends and receives pair up one to one.
  void check_pairing() {
    using Pairing = std::tuple<MulticastId, NodeId, NodeId>;  // (k, sender, receiver)
    std::map<Pairing, int> balance;
    for (NodeId i = 0; i < tasks_.size(); ++i) {
      for (std::size_t t = 0; t < tasks_[i].size(); ++t) {
        const Task& task = tasks_[i][t];
        const MulticastId k = task.multicast;
        if (task.op == Op::send) {
          if (i != problem_.multicasts[k].source && !is_destination(k, i)) {
            fail(describe(i, t, task) + ": only the source and destinations may send it");
          }
          if (!is_destination(k, task.peer)) {
            fail(describe(i, t, task) + ": the receiver is not a destination of the multicast");
          }
          ++balance[{k, i, task.peer}];
        } else {
          --balance[{k, task.peer, i}];
        }
      }
    }
    for (const auto& [channel, count] : balance) {
      const auto [k, sender, receiver] = channel;
      if (count != 0) {
        fail("multicast " + std::to_string(k) + " from node " + std::to_string(sender) + " to node " +
             std::to_string(receiver) + ": sends and receives do not pair up (" + std::to_string(count) +
             " unmatched " + (count > 0 ? "sends" : "receives") + ")");
      }
    }
  }

  // A relay sends m_k only after its receive of m_k has ended.
  void check_relays() {
    for (NodeId i = 0; i < tasks_.size(); ++i) {
      std::map<MulticastId, double> received_at;
      for (std::size_t t = 0; t < tasks_[i].size(); ++t) {
        const Task& task = tasks_[i][t];
        if (task.op == Op::recv) {
          received_at.emplace(task.multicast, task.end);
          continue;
        }
        if (i == problem_.multicasts[task.multicast].source) continue;
        const auto it = received_at.find(task.multicast);
        if (it == received_at.end()) {
          fail(describe(i, t, task) + ": relays the multicast before receiving it");
        } else if (task.start < it->second - slack()) {
          fail(describe(i, t, task) + ": starts before its receive of the multicast ends");
        }
      }
    }
  }

  double slack() const { return options_.tolerance * result_.completion_time; }

  bool close(double a, double b) const { return std::fabs(a - b) <= slack(); }

  void check_times() {
    if (simulation_.cannot_run) {
      fail("the task lists cannot run: " + simulation_.cannot_run->reason);
      return;
    }
    for (NodeId i = 0; i < tasks_.size(); ++i) {
      double free = 0;
      for (std::size_t t = 0; t < tasks_[i].size(); ++t) {
        const Task& task = tasks_[i][t];
        const TaskTimes& expected = simulation_.times[i][t];
        const double duration = task.op == Op::send ? send_overhead(problem_, i, task.multicast)
                                                    : recv_overhead(problem_, i, task.multicast);
        if (task.start < free - slack()) fail(describe(i, t, task) + ": overlaps the task before");
        if (!close(task.end - task.start, duration)) {
          fail(describe(i, t, task) + ": lasts " + format_time(task.end - task.start) + ", the model says " +
               format_time(duration));
        }
        if (task.op == Op::recv && task.start < expected.arrival - slack()) {
          fail(describe(i, t, task) + ": starts before its message arrives");
        }
        if (!close(task.start, expected.start) || !close(task.end, expected.end)) {
          fail(describe(i, t, task) + ": times [" + format_time(task.start) + ", " + format_time(task.end) +
               "] differ from the simulated [" + format_time(expected.start) + ", " + format_time(expected.end) + "]");
        }
        free = task.end;
      }
    }
  }

  const Problem& problem_;
  const std::vector<TaskList>& tasks_;
  const ValidationOptions& options_;
  Simulation simulation_;
  Validation result_;
};

}  // namespace

Validation validate(const Problem& problem, const std::vector<TaskList>& tasks, const ValidationOptions& options) {
  return Checker(problem, tasks, options).run();
}

}  // namespace baton::schedule::multicast
