// What the agents of one run of plans said so far: a job's, or a calibration probe's. The
// step executor (step_executor.h) fills it from their messages while the run is attached,
// and reads it to decide; the job's views read the progress of the step running.
#pragma once

#include "coordinator/daemon/clock.h"
#include "coordinator/daemon/range_step_times.h"
#include "protocol/baton.pb.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace baton::coordinator {

// What a node said of the running attempt so far (StepProgress): the bytes it moved and,
// in a dataflow step, the tasks that have ended.
struct NodeProgress {
  std::uint64_t bytes = 0;
  std::vector<protocol::TaskTiming> tasks;
};

// A step's (or a range's) reports by node, and how many of them failed, kept as they are
// recorded: a wait asks on every wake, and counting them each time made N reports cost N²
// (docs/runtime.md, "Where the rest goes").
class StepReports {
 public:
  void record(const std::string& node, const protocol::StepReport& report) {
    const auto [at, added] = by_node_.try_emplace(node, report);
    if (!added) {
      if (!at->second.ok()) --failed_;
      at->second = report;
    }
    if (!report.ok()) ++failed_;
  }
  void clear() {
    by_node_.clear();
    failed_ = 0;
  }
  std::size_t failed() const noexcept { return failed_; }
  bool contains(const std::string& node) const { return by_node_.contains(node); }
  std::size_t size() const noexcept { return by_node_.size(); }
  const std::map<std::string, protocol::StepReport>& by_node() const noexcept { return by_node_; }

 private:
  std::map<std::string, protocol::StepReport> by_node_;
  std::size_t failed_ = 0;
};

// A self-paced range running (StepRelease.last_step): its number, its steps, the node that
// says which steps every node passed (the plans' first member) and what it said
// (StepPassed: the last such step, each one's seconds, and when it started after the
// range's release), and when it last said it. Outside StepExchange, whose `range` it is:
// Clang 14 cannot default-construct a nested struct with member initializers through
// std::optional before the enclosing struct is complete.
struct SelfPacedRange {
  std::uint64_t number = 0;
  std::uint32_t first = 0, last = 0;
  std::string first_member;
  std::optional<std::uint32_t> passed;
  std::map<std::uint32_t, PassedWord> words;  // the first member's StepPassed of each step
  Clock::time_point progressed{};
};

struct StepExchange {
  std::string job;                 // the id the agents know the run by
  std::vector<std::string> nodes;  // every node of the run
  std::uint32_t step = 0;          // the step running (or next)
  bool cancel_requested = false;

  // The nodes known to hold the run's plan: they accepted it, or said so in a JobStatus
  // after registering. A node that registers anew (a restarted agent, or a control session
  // cut and opened again) holds nothing until it accepts the plan again.
  std::set<std::string> holding;
  // Answers to the plan being offered, by node, and the nodes that registered anew since
  // the offer began (their plan may have been lost with the old session).
  std::set<std::string> accepted;
  std::map<std::string, std::string> refused;
  std::set<std::string> registered_anew;
  // Reports of the step running, its progress so far, and when its attempt was released.
  StepReports reports;
  std::map<std::string, NodeProgress> progress;
  Clock::time_point released{};
  // The attempt at step `cancelled_step` ended early (StepCancel, with this reason): an
  // agent that comes back without having reported it is told again.
  std::optional<std::uint32_t> cancelled_step;
  std::string cancel_reason;
  // The self-paced range running, if any; the nodes' reports of its end go to `reports`.
  using Range = SelfPacedRange;
  std::optional<Range> range;
  // Answers to JobEnded: staged files in place, or why not.
  std::set<std::string> committed;
  std::map<std::string, std::string> commit_errors;
};

}  // namespace baton::coordinator
