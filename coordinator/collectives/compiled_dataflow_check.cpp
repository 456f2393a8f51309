#include "coordinator/collectives/compiled_dataflow_check.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <optional>
#include <set>

namespace baton::collectives {
namespace {

// What a run of bytes holds: bytes [begin, begin + length) of `what` ("data": the job's
// array; "NODE:FILE": a source file of a multicast), combined from the data of `from`.
struct Value {
  std::string what;
  std::uint64_t begin = 0;
  std::multiset<std::string> from;
};

struct Stored {
  std::uint64_t length = 0;
  Value value;
};

// Every node's objects: node → object → offset → what the bytes from there hold.
using Memory = std::map<std::string, std::map<std::string, std::map<std::uint64_t, Stored>>>;

struct Access {
  std::size_t vertex = 0;
  std::string object;
  std::uint64_t offset = 0, length = 0;
  bool writes = false;
};

// A combine, or a transfer (a send chunk and its receive chunk, which end together).
struct Vertex {
  std::string node;                        // the combine's node, the transfer's receiver
  std::string sender;                      // a transfer's
  const protocol::Task* task = nullptr;    // a combine
  const protocol::Chunk* chunk = nullptr;  // a transfer's, as its receiver has it
  std::uint32_t receive = 0;               // a transfer's receive task
  std::vector<std::size_t> after;
};

// Bytes a transfer wrote: what they hold, where.
struct Delivery {
  std::string node;
  std::string object;
  Value value;
  std::uint64_t length = 0;
};

class Checker {
 public:
  Checker(const CollectiveJob& job, const std::map<std::string, protocol::Plan>& plans) : job_(job), plans_(plans) {}

  std::vector<std::string> run() {
    if (!structure()) return errors_;
    seed();
    std::vector<std::size_t> order;
    if (!runs(order)) return errors_;
    races();
    for (const std::size_t v : order) evaluate(v);
    results();
    return errors_;
  }

 private:
  void fail(const std::string& error) {
    if (errors_.size() < 20) errors_.push_back(error);
  }

  static std::string task_name(const std::string& node, std::uint32_t id) {
    return node + "'s task " + std::to_string(id);
  }

  bool structure() {
    std::map<std::uint64_t, std::pair<std::string, const protocol::Chunk*>> sent, received;
    std::map<std::uint64_t, std::string> senders_of, receive_peer;
    std::map<std::uint64_t, std::pair<std::string, std::uint32_t>> receive_task;
    for (const std::string& node : job_.nodes) {
      const auto found = plans_.find(node);
      if (found == plans_.end()) {
        fail(node + " has no plan");
        continue;
      }
      const protocol::Plan& plan = found->second;
      if (plan.kind() != name(job_.kind)) fail(node + "'s plan is of kind \"" + plan.kind() + "\"");
      if (plan.steps_size() != 1 || plan.steps(0).index() != 0 || plan.steps(0).flows_size() != 0) {
        fail(node + "'s plan is not one step of tasks");
        continue;
      }
      std::set<std::uint32_t> ids;
      for (const protocol::Task& t : plan.steps(0).tasks()) {
        if (t.id() == 0 || !ids.insert(t.id()).second) fail(task_name(node, t.id()) + ": id 0 or repeated");
        if (!(std::isfinite(t.planned_start()) && t.planned_start() >= 0 && t.planned_end() >= t.planned_start())) {
          fail(task_name(node, t.id()) + ": planned times out of order");
        }
      }
      for (const protocol::Task& t : plan.steps(0).tasks()) {
        for (const std::uint32_t a : t.after()) {
          if (a == t.id() || !ids.contains(a)) fail(task_name(node, t.id()) + " waits for task " + std::to_string(a));
        }
        if (t.has_combine()) {
          combine_shape(node, t);
          continue;
        }
        if (!t.has_flow()) {
          fail(task_name(node, t.id()) + " is neither a flow nor a combine");
          continue;
        }
        const protocol::Flow& f = t.flow();
        if (f.peer() == node || plans_.find(f.peer()) == plans_.end()) {
          fail(task_name(node, t.id()) + ": peer " + f.peer() + " is not another node of the job");
        }
        if (!(std::isfinite(f.rate()) && f.rate() > 0)) fail(task_name(node, t.id()) + ": flow without a pace");
        if (f.chunks_size() == 0) fail(task_name(node, t.id()) + ": flow without chunks");
        for (const protocol::Chunk& c : f.chunks()) {
          if (c.length() == 0) fail(task_name(node, t.id()) + ": empty chunk");
          auto& side = f.send() ? sent : received;
          if (!side.emplace(c.transfer(), std::pair{node, &c}).second) {
            fail("transfer " + std::to_string(c.transfer()) + " is " + (f.send() ? "sent" : "received") + " twice");
          }
          if (f.send()) {
            senders_of[c.transfer()] = f.peer();
          } else {
            receive_peer[c.transfer()] = f.peer();
            receive_task[c.transfer()] = {node, t.id()};
          }
        }
      }
    }
    if (!errors_.empty()) return false;
    // Every chunk sent is received once, by the peer, with the same ranges.
    std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> streams;
    for (const auto& [transfer, send] : sent) {
      const auto receive = received.find(transfer);
      const std::string what = "transfer " + std::to_string(transfer);
      if (receive == received.end()) {
        fail(what + " is sent by " + send.first + " but received by nobody");
        continue;
      }
      const protocol::Chunk& s = *send.second;
      const protocol::Chunk& r = *receive->second.second;
      if (senders_of.at(transfer) != receive->second.first || receive_peer.at(transfer) != send.first) {
        fail(what + ": sender and receiver do not name each other");
      }
      if (s.src_file() != r.src_file() || s.src_offset() != r.src_offset() || s.dst_file() != r.dst_file() ||
          s.dst_offset() != r.dst_offset() || s.length() != r.length() || s.stream_offset() != r.stream_offset()) {
        fail(what + ": the sender's and the receiver's chunks differ");
      }
      streams[receive->second.first].emplace_back(r.stream_offset(), r.length());
      const auto& [node, id] = receive_task.at(transfer);
      vertices_.push_back({node, send.first, nullptr, &r, id, {}});
      transfer_vertex_[transfer] = vertices_.size() - 1;
    }
    for (const auto& [transfer, receive] : received) {
      if (!sent.contains(transfer)) fail("transfer " + std::to_string(transfer) + " is received but never sent");
    }
    for (auto& [node, ranges] : streams) {
      std::ranges::sort(ranges);
      for (std::size_t i = 1; i < ranges.size(); ++i) {
        if (ranges[i - 1].first + ranges[i - 1].second > ranges[i].first) {
          fail(node + "'s incoming stream has overlapping chunks at " + std::to_string(ranges[i].first));
        }
      }
    }
    return errors_.empty();
  }

  void combine_shape(const std::string& node, const protocol::Task& t) {
    const protocol::Combine& c = t.combine();
    const std::string at = task_name(node, t.id());
    if (c.dtype() != job_.data.dtype || c.op() != job_.op) fail(at + ": combines another dtype or op than the job's");
    if (c.inputs_size() < 2) fail(at + ": combines fewer than two inputs");
    const std::uint64_t size = element_size(job_.data.dtype);
    for (const protocol::Region& r : c.inputs()) {
      if (r.length() != c.output().length()) fail(at + ": inputs and output of different lengths");
    }
    if (c.output().length() == 0 || c.output().length() % size != 0) fail(at + ": regions not whole elements");
  }

  // Builds the graph (combines and transfers, with waits, send order and transfers) and
  // orders it; false on a cycle.
  bool runs(std::vector<std::size_t>& order) {
    std::map<std::pair<std::string, std::uint32_t>, std::vector<std::size_t>> vertices_of;
    for (std::size_t v = 0; v < vertices_.size(); ++v) {
      // a transfer vertex belongs to its receive task and its send task
      vertices_of[{vertices_[v].node, vertices_[v].receive}].push_back(v);
    }
    for (const auto& [node, plan] : plans_) {
      for (const protocol::Task& t : plan.steps(0).tasks()) {
        if (t.has_combine()) {
          vertices_.push_back({node, "", &t, nullptr, 0, {}});
          vertices_of[{node, t.id()}].push_back(vertices_.size() - 1);
        } else if (t.flow().send()) {
          for (const protocol::Chunk& c : t.flow().chunks()) {
            vertices_of[{node, t.id()}].push_back(transfer_vertex_.at(c.transfer()));
          }
        }
      }
    }
    // Each task's vertices wait for the vertices of the tasks it waits for; a node's sends
    // wait for its previous send.
    for (const auto& [node, plan] : plans_) {
      std::vector<std::size_t> previous_send;
      for (const protocol::Task& t : plan.steps(0).tasks()) {
        const std::vector<std::size_t>& mine = vertices_of[{node, t.id()}];
        for (const std::size_t v : mine) {
          for (const std::uint32_t a : t.after()) {
            for (const std::size_t w : vertices_of[{node, a}]) vertices_[v].after.push_back(w);
          }
          if (t.has_flow() && t.flow().send()) {
            for (const std::size_t w : previous_send) vertices_[v].after.push_back(w);
          }
        }
        if (t.has_flow() && t.flow().send()) previous_send = mine;
      }
    }
    std::vector<std::size_t> waiting(vertices_.size());
    next_.assign(vertices_.size(), {});
    for (std::size_t v = 0; v < vertices_.size(); ++v) {
      auto& after = vertices_[v].after;
      std::ranges::sort(after);
      // std::unique, not std::ranges::unique: clang 14 (the fuzz tree) cannot take
      // libstdc++ 12's ranges::subrange apart.
      after.erase(std::unique(after.begin(), after.end()), after.end());
      waiting[v] = vertices_[v].after.size();
      for (const std::size_t a : vertices_[v].after) next_[a].push_back(v);
    }
    std::deque<std::size_t> ready;
    for (std::size_t v = 0; v < vertices_.size(); ++v) {
      if (waiting[v] == 0) ready.push_back(v);
    }
    while (!ready.empty()) {
      const std::size_t v = ready.front();
      ready.pop_front();
      order.push_back(v);
      for (const std::size_t n : next_[v]) {
        if (--waiting[n] == 0) ready.push_back(n);
      }
    }
    if (order.size() == vertices_.size()) {
      position_.assign(vertices_.size(), 0);
      for (std::size_t i = 0; i < order.size(); ++i) position_[order[i]] = i;
      return true;
    }
    for (std::size_t v = 0; v < vertices_.size(); ++v) {
      if (waiting[v] > 0) {
        fail("the plans deadlock: " + describe(v) + " can never start");
        break;
      }
    }
    return false;
  }

  std::string describe(std::size_t v) const {
    const Vertex& x = vertices_[v];
    if (x.task != nullptr) return task_name(x.node, x.task->id()) + " (combine)";
    return "transfer " + std::to_string(x.chunk->transfer()) + " from " + x.sender + " to " + x.node;
  }

  // Whether `from` must end before `to` starts.
  bool reaches(std::size_t from, std::size_t to) const {
    if (position_[from] >= position_[to]) return false;
    std::vector<bool> seen(vertices_.size(), false);
    std::deque<std::size_t> todo{from};
    while (!todo.empty()) {
      const std::size_t v = todo.front();
      todo.pop_front();
      if (v == to) return true;
      for (const std::size_t n : next_[v]) {
        if (!seen[n] && position_[n] <= position_[to]) {
          seen[n] = true;
          todo.push_back(n);
        }
      }
    }
    return false;
  }

  std::vector<std::pair<std::string, Access>> accesses() const {
    std::vector<std::pair<std::string, Access>> out;
    for (std::size_t v = 0; v < vertices_.size(); ++v) {
      const Vertex& x = vertices_[v];
      if (x.task != nullptr) {
        for (const protocol::Region& r : x.task->combine().inputs()) {
          out.push_back({x.node, {v, r.object(), r.offset(), r.length(), false}});
        }
        const protocol::Region& o = x.task->combine().output();
        out.push_back({x.node, {v, o.object(), o.offset(), o.length(), true}});
      } else {
        const protocol::Chunk& c = *x.chunk;
        out.push_back({x.sender, {v, c.src_file(), c.src_offset(), c.length(), false}});
        out.push_back({x.node, {v, c.dst_file(), c.dst_offset(), c.length(), true}});
      }
    }
    return out;
  }

  void races() {
    std::map<std::pair<std::string, std::string>, std::vector<Access>> by_object;
    for (auto& [node, access] : accesses()) by_object[{node, access.object}].push_back(access);
    for (const auto& [where, list] : by_object) {
      for (std::size_t i = 0; i < list.size(); ++i) {
        for (std::size_t j = i + 1; j < list.size(); ++j) {
          const Access& a = list[i];
          const Access& b = list[j];
          if (a.vertex == b.vertex || !(a.writes || b.writes)) continue;
          if (a.offset >= b.offset + b.length || b.offset >= a.offset + a.length) continue;
          if (!reaches(a.vertex, b.vertex) && !reaches(b.vertex, a.vertex)) {
            fail("race on " + where.first + "'s " + where.second + ": " + describe(a.vertex) + " and " +
                 describe(b.vertex) + " are not ordered");
          }
        }
      }
    }
  }

  // What `node` holds at [offset, offset + length) of `object`, or nothing (and an error)
  // when the range is not one run of known bytes.
  std::optional<Value> read(const std::string& node, const std::string& object, std::uint64_t offset,
                            std::uint64_t length, const std::string& by) {
    const auto& runs = memory_[node][object];
    auto it = runs.upper_bound(offset);
    if (it != runs.begin()) {
      --it;
      if (offset + length <= it->first + it->second.length) {
        Value v = it->second.value;
        v.begin += offset - it->first;
        return v;
      }
    }
    fail(by + " reads " + node + "'s " + object + " [" + std::to_string(offset) + ", " +
         std::to_string(offset + length) + ") before it holds those bytes");
    return std::nullopt;
  }

  void write(const std::string& node, const std::string& object, std::uint64_t offset, std::uint64_t length,
             Value value) {
    auto& runs = memory_[node][object];
    const std::uint64_t end = offset + length;
    // Keep the parts of older runs outside [offset, end).
    std::vector<std::pair<std::uint64_t, Stored>> kept;
    for (auto it = runs.begin(); it != runs.end();) {
      const std::uint64_t b = it->first, e = it->first + it->second.length;
      if (e <= offset || b >= end) {
        ++it;
        continue;
      }
      if (b < offset) kept.push_back({b, {offset - b, it->second.value}});
      if (e > end) {
        Value tail = it->second.value;
        tail.begin += end - b;
        kept.push_back({end, {e - end, std::move(tail)}});
      }
      it = runs.erase(it);
    }
    for (auto& [b, s] : kept) runs.emplace(b, std::move(s));
    runs.emplace(offset, Stored{length, std::move(value)});
  }

  void evaluate(std::size_t v) {
    const Vertex& x = vertices_[v];
    if (x.task == nullptr) {
      const protocol::Chunk& c = *x.chunk;
      std::optional<Value> value = read(x.sender, c.src_file(), c.src_offset(), c.length(), describe(v));
      if (!value) return;
      deliveries_.push_back({x.node, c.dst_file(), *value, c.length()});
      write(x.node, c.dst_file(), c.dst_offset(), c.length(), std::move(*value));
      return;
    }
    const protocol::Combine& c = x.task->combine();
    Value out;
    for (int i = 0; i < c.inputs_size(); ++i) {
      const protocol::Region& r = c.inputs(i);
      std::optional<Value> in = read(x.node, r.object(), r.offset(), r.length(), describe(v));
      if (!in) return;
      if (i == 0) {
        out = *in;
        continue;
      }
      if (in->what != out.what || in->begin != out.begin) {
        fail(describe(v) + " folds different parts of the array");
        return;
      }
      for (const std::string& n : in->from) {
        if (out.from.contains(n)) fail(describe(v) + " folds " + n + "'s data twice");
        out.from.insert(n);
      }
    }
    write(x.node, c.output().object(), c.output().offset(), c.output().length(), std::move(out));
  }

  // Every byte of [0, length) of `object` on `node` holds bytes [begin, begin + length) of
  // `what`, combined from exactly `from`.
  void expect(const std::string& node, const std::string& object, std::uint64_t length, const std::string& what,
              std::uint64_t begin, const std::multiset<std::string>& from, const std::string& describe_what) {
    const auto& runs = memory_[node][object];
    std::uint64_t at = 0;
    auto it = runs.find(0);
    while (at < length) {
      if (it == runs.end() || it->first != at || it->second.value.what != what ||
          it->second.value.begin != begin + at || it->second.value.from != from) {
        fail(node + "'s " + object + " does not hold " + describe_what + " at byte " + std::to_string(at));
        return;
      }
      at += it->second.length;
      ++it;
    }
  }

  void results() {
    if (!errors_.empty()) return;
    if (combines(job_.kind)) {
      std::multiset<std::string> everyone(job_.nodes.begin(), job_.nodes.end());
      for (const std::string& node : job_.nodes) {
        if (job_.kind == jobs::JobKind::reduce && node != job_.root) continue;
        expect(node, job_.result_file, job_.data.bytes(), "data", 0, everyone, "every node's data combined once");
      }
      return;
    }
    // (message, destination) → bytes delivered: the message whole, or in segments
    // (pipeline.h) that together hold it once; where they land is expect()'s to check.
    std::map<std::pair<std::size_t, std::string>, std::uint64_t> received;
    for (const Delivery& d : deliveries_) {
      bool intended = false;
      for (std::size_t k = 0; k < job_.messages.size(); ++k) {
        const Message& m = job_.messages[k];
        if (d.value.what == m.source + ":" + m.file && d.object == m.dst_file &&
            std::ranges::find(m.destinations, d.node) != m.destinations.end()) {
          intended = true;
          received[{k, d.node}] += d.length;
        }
      }
      if (!intended) fail(d.node + " receives bytes of " + d.value.what + " into " + d.object + ", not its to receive");
    }
    for (std::size_t k = 0; k < job_.messages.size(); ++k) {
      const Message& m = job_.messages[k];
      for (const std::string& d : m.destinations) {
        const std::uint64_t n = received[{k, d}];
        if (n != *m.length) {
          fail(d + " receives " + std::to_string(n) + " bytes of message " + std::to_string(k) + ", which has " +
               std::to_string(*m.length));
        }
        expect(d, m.dst_file, *m.length, m.source + ":" + m.file, m.offset, {}, "message " + std::to_string(k));
      }
    }
  }

  void seed() {
    if (combines(job_.kind)) {
      for (const std::string& node : job_.nodes) {
        write(node, job_.data.file, job_.data.offset, job_.data.bytes(), Value{"data", 0, {node}});
      }
      return;
    }
    for (const Message& m : job_.messages) {
      write(m.source, m.file, m.offset, *m.length, Value{m.source + ":" + m.file, m.offset, {}});
    }
  }

  const CollectiveJob& job_;
  const std::map<std::string, protocol::Plan>& plans_;
  std::vector<std::string> errors_;
  std::vector<Vertex> vertices_;
  std::map<std::uint64_t, std::size_t> transfer_vertex_;
  std::vector<std::vector<std::size_t>> next_;
  std::vector<std::size_t> position_;
  Memory memory_;
  std::vector<Delivery> deliveries_;
};

}  // namespace

std::vector<std::string> check_dataflow_plans(const CollectiveJob& job,
                                              const std::map<std::string, protocol::Plan>& plans) {
  return Checker(job, plans).run();
}

}  // namespace baton::collectives
