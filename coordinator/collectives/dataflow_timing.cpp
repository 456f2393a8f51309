#include "coordinator/collectives/dataflow_timing.h"

#include "error/error.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace baton::collectives {
namespace {

// A task by its node (index into the plan's nodes) and its place in that node's list.
struct TaskRef {
  std::size_t node = 0;
  std::size_t index = 0;
};

// A send and its receive, which start moving and end together.
struct Transfer {
  enum class Phase { waiting, holding, latency, moving, done };
  TaskRef send, receive;
  std::uint64_t number = 0;  // the plan's transfer number
  double bytes = 0;
  Phase phase = Phase::waiting;
  double left = 0;  // latency: seconds of β still to go; moving: bytes still to move
  double rate = 0;  // moving: bytes/s now
  double peak = 0;  // the fastest it moved
};

struct NodeState {
  std::string name;
  std::vector<DataflowTask>* tasks = nullptr;
  double rate = 0;                 // r_p, each way
  std::vector<std::size_t> sends;  // indices into tasks, list order
  std::size_t first_undone_send = 0;
  std::deque<std::size_t> combines_ready;  // in the order they became ready
  std::optional<std::size_t> combining;    // the task on the node's worker
  double combine_left = 0;                 // its seconds still to go
};

class Simulation {
 public:
  Simulation(DataflowPlan& plan, const CollectiveModel& model, std::size_t sends_at_once)
      : model_(model), sends_at_once_(sends_at_once) {
    if (sends_at_once_ == 0) throw error::Bug("plan compiler: a node must be allowed at least one send");
    for (auto& [name, tasks] : plan) {
      NodeState& node = nodes_.emplace_back();
      node.name = name;
      node.tasks = &tasks;
      node.rate = model.nodes.at(name).rate;
    }
    index_tasks();
    pair_transfers();
    link_waits();
  }

  double run() {
    start_what_can();
    while (busy()) {
      share_links();
      step(next_event());
      start_what_can();
    }
    if (finished_ != total_) throw error::Bug("plan compiler: the plan deadlocks at " + first_unfinished());
    return now_;
  }

 private:
  DataflowTask& task(TaskRef r) { return (*nodes_[r.node].tasks)[r.index]; }
  std::size_t flat(TaskRef r) const { return offset_[r.node] + r.index; }
  std::string where(TaskRef r) { return nodes_[r.node].name + "'s task " + std::to_string(task(r).id); }

  void index_tasks() {
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
      offset_.push_back(total_);
      total_ += nodes_[n].tasks->size();
    }
    waits_left_.assign(total_, 0);
    done_.assign(total_, false);
    ready_.assign(total_, false);
    dependents_.assign(total_, {});
    transfer_of_.assign(total_, 0);
  }

  void pair_transfers() {
    std::map<std::uint64_t, std::size_t> by_number;
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
      for (std::size_t i = 0; i < nodes_[n].tasks->size(); ++i) {
        const DataflowTask& t = (*nodes_[n].tasks)[i];
        if (t.kind == TaskKind::combine) continue;
        const auto [it, fresh] = by_number.emplace(t.transfer, transfers_.size());
        if (fresh) transfers_.emplace_back();
        Transfer& transfer = transfers_[it->second];
        transfer.number = t.transfer;
        (t.kind == TaskKind::send ? transfer.send : transfer.receive) = {n, i};
        if (t.kind == TaskKind::send) {
          transfer.bytes = static_cast<double>(t.region.length);
          nodes_[n].sends.push_back(i);
        }
        transfer_of_[flat({n, i})] = it->second;
        ++paired_[it->second];
      }
    }
    for (const auto& [transfer, tasks] : paired_) {
      if (tasks != 2) {
        throw error::Bug("plan compiler: transfer " + std::to_string(transfers_[transfer].number) +
                         " has no matching send or receive");
      }
    }
  }

  void link_waits() {
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
      std::map<std::uint32_t, std::size_t> index_of;
      for (std::size_t i = 0; i < nodes_[n].tasks->size(); ++i) index_of[(*nodes_[n].tasks)[i].id] = i;
      for (std::size_t i = 0; i < nodes_[n].tasks->size(); ++i) {
        for (const std::uint32_t a : (*nodes_[n].tasks)[i].after) {
          const auto found = index_of.find(a);
          if (found == index_of.end()) {
            throw error::Bug("plan compiler: " + where({n, i}) + " waits for task " + std::to_string(a) +
                             ", which does not exist");
          }
          ++waits_left_[flat({n, i})];
          dependents_[flat({n, found->second})].push_back({n, i});
        }
      }
    }
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
      for (std::size_t i = 0; i < nodes_[n].tasks->size(); ++i) {
        if (waits_left_[flat({n, i})] == 0) become_ready({n, i});
      }
    }
  }

  void become_ready(TaskRef r) {
    ready_[flat(r)] = true;
    if (task(r).kind == TaskKind::combine) nodes_[r.node].combines_ready.push_back(r.index);
  }

  void finish(TaskRef r) {
    done_[flat(r)] = true;
    ++finished_;
    task(r).planned_end = now_;
    for (const TaskRef d : dependents_[flat(r)]) {
      if (--waits_left_[flat(d)] == 0) become_ready(d);
    }
  }

  bool busy() const {
    return !active_.empty() || std::ranges::any_of(nodes_, [](const NodeState& n) { return n.combining.has_value(); });
  }

  // Sends in list order, at most sends_at_once of them unfinished ahead of one that starts;
  // a started send's bytes move once its receive may start; combines one at a time.
  void start_what_can() {
    bool again = true;
    while (again) {
      again = false;
      for (std::size_t n = 0; n < nodes_.size(); ++n) {
        NodeState& node = nodes_[n];
        while (node.first_undone_send < node.sends.size() && done_[flat({n, node.sends[node.first_undone_send]})])
          ++node.first_undone_send;
        std::size_t unfinished = 0;
        for (std::size_t s = node.first_undone_send; s < node.sends.size() && unfinished < sends_at_once_; ++s) {
          const TaskRef send{n, node.sends[s]};
          if (done_[flat(send)]) continue;
          ++unfinished;
          Transfer& transfer = transfers_[transfer_of_[flat(send)]];
          if (transfer.phase == Transfer::Phase::waiting && ready_[flat(send)]) {
            transfer.phase = Transfer::Phase::holding;
            holding_.push_back(transfer_of_[flat(send)]);
          }
        }
        if (!node.combining && !node.combines_ready.empty()) {
          node.combining = node.combines_ready.front();
          node.combines_ready.pop_front();
          DataflowTask& c = (*node.tasks)[*node.combining];
          c.planned_start = now_;
          node.combine_left = model_.combine_seconds(node.name, c.output.length, c.inputs.size());
        }
      }
      std::erase_if(holding_, [&](std::size_t held) {
        Transfer& t = transfers_[held];
        if (!ready_[flat(t.receive)]) return false;
        task(t.send).planned_start = task(t.receive).planned_start = now_;
        t.phase = Transfer::Phase::latency;
        t.left = model_.beta;
        active_.push_back(held);
        return true;
      });
      // What ends at once (no β, no bytes, nothing to fold) ends now and may start more.
      again = end_instant_tasks();
    }
  }

  bool end_instant_tasks() {
    bool ended = false;
    std::erase_if(active_, [&](std::size_t a) {
      Transfer& t = transfers_[a];
      if (t.phase == Transfer::Phase::latency && t.left <= 0) {
        t.phase = Transfer::Phase::moving;
        t.left = t.bytes;
      }
      if (t.phase != Transfer::Phase::moving || t.left > 0) return false;
      end(t);
      ended = true;
      return true;
    });
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
      if (nodes_[n].combining && nodes_[n].combine_left <= 0) {
        finish({n, *nodes_[n].combining});
        nodes_[n].combining.reset();
        ended = true;
      }
    }
    return ended;
  }

  void end(Transfer& t) {
    t.phase = Transfer::Phase::done;
    t.rate = 0;
    if (t.peak > 0) task(t.send).planned_rate = task(t.receive).planned_rate = t.peak;
    finish(t.send);
    finish(t.receive);
  }

  // Max-min fair rates for the moving transfers (progressive filling): every flow's rate
  // rises together until a sender's or receiver's link is full; the flows through it keep
  // that rate and the others go on rising.
  void share_links() {
    const std::size_t n = nodes_.size();
    std::vector<double> out(n), in(n);
    std::vector<std::size_t> outs(n, 0), ins(n, 0);
    for (std::size_t i = 0; i < n; ++i) out[i] = in[i] = nodes_[i].rate;
    std::vector<Transfer*> rising;
    for (const std::size_t a : active_) {
      Transfer& t = transfers_[a];
      if (t.phase != Transfer::Phase::moving) continue;
      rising.push_back(&t);
      ++outs[t.send.node];
      ++ins[t.receive.node];
    }
    double level = 0;
    while (!rising.empty()) {
      double step = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < n; ++i) {
        if (outs[i] > 0) step = std::min(step, out[i] / static_cast<double>(outs[i]));
        if (ins[i] > 0) step = std::min(step, in[i] / static_cast<double>(ins[i]));
      }
      level += step;
      for (std::size_t i = 0; i < n; ++i) {
        out[i] -= step * static_cast<double>(outs[i]);
        in[i] -= step * static_cast<double>(ins[i]);
      }
      const auto full = [&](double left, std::size_t node) { return left <= 1e-9 * nodes_[node].rate; };
      std::erase_if(rising, [&](Transfer* t) {
        if (!full(out[t->send.node], t->send.node) && !full(in[t->receive.node], t->receive.node)) return false;
        t->rate = level;
        t->peak = std::max(t->peak, level);
        --outs[t->send.node];
        --ins[t->receive.node];
        return true;
      });
    }
  }

  double next_event() const {
    double dt = std::numeric_limits<double>::infinity();
    for (const std::size_t a : active_) {
      const Transfer& t = transfers_[a];
      if (t.phase == Transfer::Phase::latency) dt = std::min(dt, t.left);
      if (t.phase == Transfer::Phase::moving) dt = std::min(dt, t.left / t.rate);
    }
    for (const NodeState& node : nodes_) {
      if (node.combining) dt = std::min(dt, node.combine_left);
    }
    return dt;
  }

  // Time moves on by dt; what it ends, ends (a flow within a part in 10^12 of its bytes).
  void step(double dt) {
    now_ += dt;
    for (const std::size_t a : active_) {
      Transfer& t = transfers_[a];
      if (t.phase == Transfer::Phase::latency) t.left = t.left <= dt ? 0 : t.left - dt;
      if (t.phase == Transfer::Phase::moving) {
        const double moved = t.rate * dt;
        t.left = t.left <= moved * (1 + 1e-12) ? 0 : t.left - moved;
      }
    }
    for (NodeState& node : nodes_) {
      if (node.combining) node.combine_left = node.combine_left <= dt ? 0 : node.combine_left - dt;
    }
    end_instant_tasks();
  }

  std::string first_unfinished() {
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
      for (std::size_t i = 0; i < nodes_[n].tasks->size(); ++i) {
        if (!done_[flat({n, i})]) return where({n, i});
      }
    }
    return "no task";
  }

  const CollectiveModel& model_;
  const std::size_t sends_at_once_;
  std::vector<NodeState> nodes_;
  std::vector<std::size_t> offset_;  // per node: its first task's flat index
  std::size_t total_ = 0, finished_ = 0;
  std::vector<std::size_t> waits_left_;
  std::vector<bool> done_, ready_;
  std::vector<std::vector<TaskRef>> dependents_;
  std::vector<Transfer> transfers_;
  std::vector<std::size_t> transfer_of_;  // per task: its transfer (sends and receives)
  std::map<std::size_t, int> paired_;     // per transfer: how many of its two tasks exist
  std::vector<std::size_t> holding_;      // transfers whose send started, waiting for the receive
  std::vector<std::size_t> active_;       // transfers in their β or moving bytes
  double now_ = 0;
};

}  // namespace

double predict(DataflowPlan& plan, const CollectiveModel& model, std::size_t sends_at_once) {
  return Simulation(plan, model, sends_at_once).run();
}

}  // namespace baton::collectives
