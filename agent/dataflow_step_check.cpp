#include "agent/dataflow_step_check.h"

#include "agent/scratch.h"
#include "combine/types.h"

#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace baton::agent {
namespace {

using std::to_string;

// The tasks a task waits for, directly or not: one bit per earlier task of the step.
class Ancestors {
 public:
  explicit Ancestors(std::size_t tasks) : words_((tasks + 63) / 64), bits_(tasks * words_) {}
  // Task `task` waits for `other` (an earlier task) and for everything `other` waits for.
  void add(std::size_t task, std::size_t other) {
    for (std::size_t w = 0; w < words_; ++w) bits_[task * words_ + w] |= bits_[other * words_ + w];
    bits_[task * words_ + other / 64] |= std::uint64_t{1} << (other % 64);
  }
  bool waits_for(std::size_t task, std::size_t other) const {
    return (bits_[task * words_ + other / 64] >> (other % 64)) & 1;
  }

 private:
  std::size_t words_;
  std::vector<std::uint64_t> bits_;
};

struct Read {
  const std::string* object;
  std::uint64_t begin;
  std::uint64_t end;
  std::size_t task;
};

std::string task_label(const protocol::Task& task) {
  std::string label = "task " + to_string(task.id());
  if (task.has_combine()) return label + " (combine)";
  if (task.has_flow())
    return label + (task.flow().send() ? " (send to " : " (receive from ") + task.flow().peer().substr(0, 200) + ")";
  return label;
}

class StepChecker {
 public:
  StepChecker(const protocol::Step& step, const PlanObjects& objects, PlanFacts& facts)
      : step_(step), objects_(objects), facts_(facts), ancestors_(static_cast<std::size_t>(step.tasks_size())) {}

  std::optional<error::Refusal> check() {
    const std::string at = "step " + to_string(step_.index());
    if (step_.flows_size() > 0) return at + ": a dataflow step lists tasks, not flows";
    if (step_.tasks_size() > max_tasks_per_step)
      return at + ": " + to_string(step_.tasks_size()) + " tasks, more than the " + to_string(max_tasks_per_step) +
             " a step may hold";
    facts_.steps[step_.index()] = &step_;
    for (int t = 0; t < step_.tasks_size(); ++t) {
      const protocol::Task& task = step_.tasks(t);
      if (const std::optional<error::Refusal> refused = check_task(task, static_cast<std::size_t>(t)))
        return at + ", " + task_label(task) + ": " + refused->reason;
    }
    for (const Read& read : reads_) {
      if (const std::optional<error::Refusal> refused = check_read(read))
        return at + ", " + task_label(step_.tasks(static_cast<int>(read.task))) + ": " + refused->reason;
    }
    return {};
  }

 private:
  std::optional<error::Refusal> check_task(const protocol::Task& task, std::size_t t) {
    if (!positions_.emplace(task.id(), t).second) return "its id is used by an earlier task of the step";
    for (std::uint32_t after : task.after()) {
      const auto earlier = positions_.find(after);
      if (earlier == positions_.end() || earlier->second == t)
        return "waits for task " + to_string(after) + ", which is not an earlier task of the step";
      ancestors_.add(t, earlier->second);
    }
    // The times a send is paced toward (agent/step_runner.cpp): finite, ordered and short
    // enough to add to a steady_clock instant without overflow.
    if (!(task.planned_start() >= 0 && task.planned_start() <= task.planned_end() &&
          task.planned_end() <= max_planned_seconds)) {
      return "planned times " + to_string(task.planned_start()) + " to " + to_string(task.planned_end()) +
             " s are not 0 <= start <= end <= " + to_string(max_planned_seconds) + " s";
    }
    switch (task.kind_case()) {
      case protocol::Task::kFlow: return check_flow(task.flow(), t);
      case protocol::Task::kCombine: return check_combine(task.combine(), t);
      case protocol::Task::KIND_NOT_SET: break;
    }
    return "it has neither a flow nor a combine";
  }

  std::optional<error::Refusal> check_flow(const protocol::Flow& flow, std::size_t t) {
    if (!pace_rate_ok(flow.rate())) return "bad rate " + to_string(flow.rate()) + " " + pace_rate_rule;
    if (flow.peer().empty()) return "its flow names no peer";
    if (flow.send() && flow.peer_address().empty()) return "its send flow has no peer address";
    if (flow.chunks_size() == 0) return "its flow has no chunk";
    for (int i = 0; i < flow.chunks_size(); ++i) {
      const protocol::Chunk& c = flow.chunks(i);
      const std::string where = "chunk " + to_string(i) + " (transfer " + to_string(c.transfer()) + "): ";
      if (c.length() == 0) return where + "length is 0";
      if (overflows(c.src_offset(), c.length())) return where + "source offset + length overflows 2^64";
      if (overflows(c.dst_offset(), c.length())) return where + "destination offset + length overflows 2^64";
      if (overflows(c.stream_offset(), c.length())) return where + "stream offset + length overflows 2^64";
      if (const std::optional<error::Refusal> refused = check_object_name(c.src_file(), objects_))
        return where + "source: " + refused->reason;
      if (const std::optional<error::Refusal> refused = check_object_name(c.dst_file(), objects_))
        return where + "destination: " + refused->reason;
      if (flow.send()) {
        reads_.push_back({&c.src_file(), c.src_offset(), c.src_offset() + c.length(), t});
        continue;
      }
      if (auto other = stream_.claim({c.stream_offset(), c.stream_offset() + c.length(), step_.index(), t}))
        return where + "stream range " + range_text(c.stream_offset(), c.length()) + " overlaps " + who(*other) + "'s";
      if (const std::optional<error::Refusal> refused = write(c.dst_file(), c.dst_offset(), c.length(), t))
        return where + refused->reason;
    }
    return {};
  }

  std::optional<error::Refusal> check_combine(const protocol::Combine& c, std::size_t t) {
    const auto dtype = combine::dtype_from_number(c.dtype());
    const auto op = combine::op_from_number(c.op());
    if (!dtype) return "unknown dtype " + to_string(c.dtype());
    if (!op) return "unknown op " + to_string(c.op());
    if (!combine::valid(*dtype, *op))
      return std::string(combine::name(*op)) + " does not apply to " + std::string(combine::name(*dtype));
    if (c.inputs_size() < 2) return "a combine needs at least two inputs, it has " + to_string(c.inputs_size());
    const std::uint64_t length = c.output().length();
    const std::size_t size = combine::element_size(*dtype);
    if (length == 0 || length % size != 0)
      return "length " + to_string(length) + " is not a positive multiple of " + std::string(combine::name(*dtype)) +
             "'s " + to_string(size) + " bytes";
    for (int i = -1; i < c.inputs_size(); ++i) {
      const protocol::Region& r = i < 0 ? c.output() : c.inputs(i);
      const std::string which = i < 0 ? std::string("output") : "input " + to_string(i);
      if (r.length() != length)
        return which + " has " + to_string(r.length()) + " bytes, the output " + to_string(length);
      if (overflows(r.offset(), r.length())) return which + ": offset + length overflows 2^64";
      if (const std::optional<error::Refusal> refused = check_object_name(r.object(), objects_))
        return which + ": " + refused->reason;
      if (i < 0) continue;
      // An input is read chunk by chunk before that chunk of the output is written: an
      // output that is the input itself is fine, one that overlaps it partly is not.
      const protocol::Region& out = c.output();
      if (r.object() == out.object() && r.offset() != out.offset() && r.offset() < out.offset() + length &&
          out.offset() < r.offset() + length)
        return which + " " + range_text(r.offset(), length) + " of " + r.object() + " overlaps the output " +
               range_text(out.offset(), length) + " partly";
      reads_.push_back({&r.object(), r.offset(), r.offset() + length, t});
    }
    return write(c.output().object(), c.output().offset(), length, t);
  }

  // Records a write; no byte of the plan is written twice.
  std::optional<error::Refusal> write(const std::string& object, std::uint64_t offset, std::uint64_t length,
                                      std::size_t t) {
    if (!is_scratch(object)) {
      if (std::optional<error::Refusal> outside = check_destination_range(object, offset, length, objects_, facts_))
        return outside;
    }
    if (auto other = facts_.written[object].claim({offset, offset + length, step_.index(), t}))
      return "destination range " + range_text(offset, length) + " of " + object + " overlaps " + who(*other);
    return {};
  }

  // A read sees bytes written before it: by a task it waits for (or an earlier step), or,
  // where none wrote, the object as it is now. A write by a task that neither waits for
  // the reader nor is waited for would race with it.
  std::optional<error::Refusal> check_read(const Read& read) {
    const std::string& object = *read.object;
    std::uint64_t cursor = read.begin, uncovered_end = read.begin;
    for (const Claim& w : facts_.written[object].overlapping(read.begin, read.end)) {
      const bool same_step = w.step == step_.index();
      if (same_step && w.who == read.task) continue;  // a combine's output that is its input
      const bool written_before = !same_step || ancestors_.waits_for(read.task, w.who);
      if (!written_before && !ancestors_.waits_for(w.who, read.task))
        return "reads " + range_text(read.begin, read.end - read.begin) + " of " + object + " while " + who(w) +
               " writes into it, and neither waits for the other";
      if (!written_before) continue;
      if (w.begin > cursor) uncovered_end = w.begin;
      cursor = std::max(cursor, w.end);
    }
    if (cursor < read.end) uncovered_end = read.end;
    if (uncovered_end == read.begin) return {};  // every byte written by a task it waits for
    if (is_scratch(object))
      return "reads " + range_text(read.begin, read.end - read.begin) + " of " + object +
             ", which the tasks it waits for do not write whole";
    // Only the bytes up to uncovered_end come from the object as it is now.
    return check_source_range(object, read.begin, uncovered_end - read.begin, objects_, facts_);
  }

  // "step 2, task 7" or, for a lockstep step's claim, "step 2, chunk 3".
  std::string who(const Claim& claim) const {
    const auto step = facts_.steps.find(claim.step);
    if (step == facts_.steps.end() || step->second->tasks_size() == 0)
      return "step " + to_string(claim.step) + ", chunk " + to_string(claim.who);
    return "step " + to_string(claim.step) + ", task " +
           to_string(step->second->tasks(static_cast<int>(claim.who)).id());
  }

  const protocol::Step& step_;
  const PlanObjects& objects_;
  PlanFacts& facts_;
  Ancestors ancestors_;
  std::map<std::uint32_t, std::size_t> positions_;  // task id → position in the step
  std::vector<Read> reads_;
  Ranges stream_;  // the step's incoming chunks, in stream_offset space
};

// The range check of check_source_range and check_destination_range: `known` holds the
// sizes (or limits) asked so far, `ask` asks one, `role` names the end in the refusal.
std::optional<error::Refusal> check_range(std::map<std::string, std::uint64_t>& known,
                                          const std::function<std::uint64_t(const std::string&)>& ask, const char* role,
                                          const std::string& object, std::uint64_t offset, std::uint64_t length) {
  auto size = known.find(object);
  if (size == known.end()) {
    try {
      size = known.emplace(object, ask(object)).first;
    } catch (const std::exception& e) {
      return std::string(role) + " unusable: " + e.what();
    }
  }
  if (offset + length > size->second)
    return std::string(role) + " range " + range_text(offset, length) + " is outside " + object + " (" +
           to_string(size->second) + " bytes)";
  return {};
}

}  // namespace

std::optional<error::Refusal> check_source_range(const std::string& object, std::uint64_t offset, std::uint64_t length,
                                                 const PlanObjects& objects, PlanFacts& facts) {
  return check_range(facts.sizes, objects.source_size, "source", object, offset, length);
}

std::optional<error::Refusal> check_destination_range(const std::string& object, std::uint64_t offset,
                                                      std::uint64_t length, const PlanObjects& objects,
                                                      PlanFacts& facts) {
  return check_range(facts.limits, objects.destination_limit, "destination", object, offset, length);
}

std::optional<error::Refusal> check_object_name(const std::string& name, const PlanObjects& objects) {
  return is_scratch(name) ? check_scratch_name(name) : objects.check_name(name);
}

std::optional<error::Refusal> check_dataflow_step(const protocol::Step& step, const PlanObjects& objects,
                                                  PlanFacts& facts) {
  return StepChecker(step, objects, facts).check();
}

}  // namespace baton::agent
