#include "agent/plan_check.h"

#include "agent/barrier_members.h"
#include "agent/dataflow_step_check.h"
#include "agent/scratch.h"
#include "transport/token_bucket.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <system_error>

namespace baton::agent {
namespace {

using std::to_string;

// Checks one chunk of a lockstep step; nothing, or the problem without its step/chunk prefix.
std::optional<error::Refusal> check_chunk(const protocol::Chunk& c, bool send, const PlanObjects& objects,
                                          PlanFacts& facts) {
  if (c.length() == 0) return "length is 0";
  if (overflows(c.src_offset(), c.length())) return "source offset + length overflows 2^64";
  if (overflows(c.dst_offset(), c.length())) return "destination offset + length overflows 2^64";
  if (overflows(c.stream_offset(), c.length())) return "stream offset + length overflows 2^64";
  // Both names are checked: neither may be valid anywhere if it escapes.
  for (const std::string* name : {&c.src_file(), &c.dst_file()}) {
    const std::string end = name == &c.src_file() ? "source: " : "destination: ";
    if (is_scratch(*name)) return end + *name + ": scratch objects belong to dataflow steps";
    if (const std::optional<error::Refusal> refused = objects.check_name(*name)) return end + refused->reason;
  }
  if (!send) return check_destination_range(c.dst_file(), c.dst_offset(), c.length(), objects, facts);
  return check_source_range(c.src_file(), c.src_offset(), c.length(), objects, facts);
}

// A lockstep step (a redistribution's, or a buffered multicast's round).
std::optional<error::Refusal> check_lockstep_step(const protocol::Step& step, bool one_port, const PlanObjects& objects,
                                                  PlanFacts& facts) {
  const std::string at = "step " + to_string(step.index());
  if (step.tasks_size() > 0) return at + ": a lockstep step lists flows, not tasks";
  facts.steps[step.index()] = &step;
  bool scheduled = false;
  for (int f = 0; f < step.flows_size(); ++f) {
    const double rate = step.flows(f).rate();
    if (!pace_rate_ok(rate))
      return at + ", flow " + to_string(f) + ": bad rate " + to_string(rate) + " " + pace_rate_rule;
    if (rate > 0) scheduled = true;
  }
  // 1-port (KPBS): in a paced (scheduled) step this agent sends to one peer and receives
  // from one, which also keeps the step within k as far as it can see (its plan holds only
  // its own flows). A node in both clusters (an in-place job) is a sender and a receiver
  // of the model, with a port each. Rate 0 (the all-at-once baseline) is exempt from both,
  // and so is a buffered multicast's round, where a node sends one message to several
  // destinations and receives up to its buffers' worth, and a plan whose flows share the
  // links (Plan.shared_links: a fluid redistribution paces each flow at its share).
  const auto sends = std::count_if(step.flows().begin(), step.flows().end(), [](const auto& f) { return f.send(); });
  const auto receives = step.flows_size() - sends;
  if (one_port && scheduled && (sends > 1 || receives > 1)) {
    return at + ": " + to_string(sends > 1 ? sends : receives) + (sends > 1 ? " send" : " receive") +
           " flows in a scheduled step, 1-port allows one";
  }

  Ranges stream;  // this step's incoming chunks, in stream_offset space
  std::size_t chunk = 0;
  for (int f = 0; f < step.flows_size(); ++f) {
    const auto& flow = step.flows(f);
    if (flow.send() && flow.peer_address().empty())
      return at + ", flow " + to_string(f) + ": send flow to " + flow.peer() + " has no peer address";
    for (const auto& c : flow.chunks()) {
      const std::string where = at + ", chunk " + to_string(chunk) + " (transfer " + to_string(c.transfer()) + "): ";
      if (const std::optional<error::Refusal> refused = check_chunk(c, flow.send(), objects, facts))
        return where + refused->reason;
      if (!flow.send()) {
        if (auto other = stream.claim({c.stream_offset(), c.stream_offset() + c.length(), step.index(), chunk}))
          return where + "stream range " + range_text(c.stream_offset(), c.length()) + " overlaps chunk " +
                 to_string(other->who) + " of the step";
        if (auto other =
                facts.written[c.dst_file()].claim({c.dst_offset(), c.dst_offset() + c.length(), step.index(), chunk}))
          return where + "destination range " + range_text(c.dst_offset(), c.length()) + " of " + c.dst_file() +
                 " overlaps step " + to_string(other->step) + ", chunk " + to_string(other->who);
      }
      ++chunk;
    }
  }
  return {};
}

// How a plan of each kind runs (docs/collectives.md, "Two ways to run a plan").
enum class Shape { lockstep_one_port, lockstep_rounds, dataflow };

std::optional<Shape> shape_of(const std::string& kind) {
  if (kind.empty() || kind == "redistribution") return Shape::lockstep_one_port;
  if (kind == "buffered-multicast") return Shape::lockstep_rounds;
  if (kind == "reduce" || kind == "allreduce" || kind == "multicast") return Shape::dataflow;
  return std::nullopt;
}

}  // namespace

std::optional<error::Refusal> check_file_name(std::string_view name) {
  if (const std::optional<error::Refusal> refused = check_name(name)) return refused;
  const std::string_view first = name.substr(0, name.find('/'));
  if (first == scratch_directory)
    return "file name " + std::string(name) + " is inside the agent's scratch directory " +
           std::string(scratch_directory);
  return {};
}

PlanObjects data_root_objects(const DataRoot& root) {
  return PlanObjects{
      .check_name = [](const std::string& name) { return check_file_name(name); },
      .source_size = [&root](const std::string& name) { return root.file_size(name); },
      // A destination may be missing (it is created), but one that exists must be a
      // regular file: a FIFO would hang the step.
      .destination_limit =
          [&root](const std::string& name) {
            root.check_destination(name);
            return std::numeric_limits<std::uint64_t>::max();
          },
  };
}

bool pace_rate_ok(double bytes_per_second) {
  return bytes_per_second == 0 ||
         (bytes_per_second >= 1 &&
          bytes_per_second <= static_cast<double>(transport::TokenBucket<std::chrono::steady_clock>::max_rate));
}

std::optional<error::Refusal> check_plan(const protocol::Plan& plan, const DataRoot& root) {
  return check_plan(plan, data_root_objects(root));
}

std::optional<error::Refusal> check_plan(const protocol::Plan& plan, const PlanObjects& objects) {
  if (plan.job().empty()) return "plan has no job id";
  if (plan.k() < 1) return "plan's k is " + to_string(plan.k()) + ", must be at least 1";
  if (!pace_rate_ok(plan.node_rate()))
    return "plan's node_rate: bad rate " + to_string(plan.node_rate()) + " " + pace_rate_rule;
  const std::optional<Shape> shape = shape_of(plan.kind());
  if (!shape) return "plan's kind '" + plan.kind().substr(0, 100) + "' is not one this agent runs";

  // Written ranges are checked across the whole plan, per object: different steps may
  // write different parts of one file, but no byte may be written twice (the result would
  // depend on step order and a re-released step could clobber another's).
  PlanFacts facts;
  std::optional<std::uint32_t> previous;
  for (int s = 0; s < plan.steps_size(); ++s) {
    const auto& step = plan.steps(s);
    if (previous && step.index() <= *previous)
      return "step " + to_string(step.index()) + " (position " + to_string(s) + "): index does not follow step " +
             to_string(*previous);
    previous = step.index();
    const std::optional<error::Refusal> refused =
        *shape == Shape::dataflow
            ? check_dataflow_step(step, objects, facts)
            : check_lockstep_step(step, *shape == Shape::lockstep_one_port && !plan.shared_links(), objects, facts);
    if (refused) return refused;
  }
  return {};
}

std::optional<error::Refusal> check_members(const protocol::Plan& plan, const std::string& self) {
  if (plan.members_size() == 0) return {};
  if (shape_of(plan.kind()) == Shape::dataflow) return "plan's members: a dataflow plan does not run self-paced";
  BarrierMembers members;
  if (std::optional<error::Refusal> wrong = read_barrier_members(plan, self, members)) return wrong;
  for (const protocol::Step& step : plan.steps()) {
    for (const protocol::Flow& flow : step.flows()) {
      for (const protocol::Chunk& c : flow.chunks()) {
        if (c.stream_offset() >= std::uint64_t{1} << 62 || c.length() >= (std::uint64_t{1} << 62) - c.stream_offset())
          return "step " + to_string(step.index()) +
                 ": a stream range reaches 2^62, where a self-paced plan's votes go";
      }
    }
  }
  return {};
}

std::map<std::string, std::uint64_t> scratch_sizes(const protocol::Plan& plan) {
  std::map<std::string, std::uint64_t> sizes;
  const auto grow = [&](const std::string& name, std::uint64_t end) {
    if (is_scratch(name)) sizes[name] = std::max(sizes[name], end);
  };
  for (const protocol::Step& step : plan.steps()) {
    for (const protocol::Task& task : step.tasks()) {
      if (task.has_combine())
        grow(task.combine().output().object(), task.combine().output().offset() + task.combine().output().length());
      if (!task.has_flow() || task.flow().send()) continue;
      for (const protocol::Chunk& c : task.flow().chunks()) grow(c.dst_file(), c.dst_offset() + c.length());
    }
  }
  return sizes;
}

}  // namespace baton::agent
