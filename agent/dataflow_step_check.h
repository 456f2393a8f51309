// The agent's checks of a dataflow step (docs/collectives.md, "The agent's checks"), beside
// the lockstep ones of agent/plan_check.cpp, which calls them.
#pragma once

#include "agent/byte_ranges.h"
#include "agent/plan_check.h"
#include "error/refusal.h"

#include <map>
#include <string>

namespace baton::agent {

// What the checks of one plan have learnt so far, shared by its steps.
struct PlanFacts {
  std::map<std::string, std::uint64_t> sizes;            // objects read: their size now
  std::map<std::string, std::uint64_t> limits;           // objects written: how far they may be written
  std::map<std::string, Ranges> written;                 // every range the plan writes, per object
  std::map<std::uint32_t, const protocol::Step*> steps;  // the steps checked so far, by index
};

// A step may hold at most this many tasks: the check keeps each task's ancestors as a bit
// set (8192² bits = 8 MiB at most).
inline constexpr int max_tasks_per_step = 8192;

// A task's planned times (seconds after the step's release) are at most this: about three
// years, far past any plan, and far below what a steady_clock instant can have added.
inline constexpr double max_planned_seconds = 1e8;

// Nothing when `step` (of a dataflow plan) may run, else the first problem, naming the step and
// the task. Records the step's writes in `facts`.
std::optional<error::Refusal> check_dataflow_step(const protocol::Step& step, const PlanObjects& objects,
                                                  PlanFacts& facts);

// Nothing when bytes [offset, offset + length) of `object` are within its size now (a
// source: what a step reads) or its limit (a destination: how far a step may write),
// else why not. Each object's size or limit is asked of `objects` once a plan and kept in
// `facts`; a question that throws refuses the object ("source unusable: ...").
std::optional<error::Refusal> check_source_range(const std::string& object, std::uint64_t offset, std::uint64_t length,
                                                 const PlanObjects& objects, PlanFacts& facts);
std::optional<error::Refusal> check_destination_range(const std::string& object, std::uint64_t offset,
                                                      std::uint64_t length, const PlanObjects& objects,
                                                      PlanFacts& facts);

// Nothing when `name` may name an object in a plan at all: a well-formed scratch name, or a name
// `objects` accepts.
std::optional<error::Refusal> check_object_name(const std::string& name, const PlanObjects& objects);

}  // namespace baton::agent
