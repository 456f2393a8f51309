// What the collectives' integration tests read from a job's report (GET /v1/jobs/ID):
// the dataflow tasks each node ran (docs/collectives.md, "Tasks"), and from them the order
// in which each node folded its inputs.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace baton::test {

// One task of report.steps[].tasks[]: planned against measured, seconds since the job
// started.
struct ReportTask {
  std::string node;
  std::string kind;  // "send", "receive", "combine"
  std::string peer;
  std::vector<std::string> folds;  // a combine's inputs, by whose data each holds, in fold order
  std::uint64_t bytes = 0;
  double planned_start = 0, planned_end = 0;
  std::optional<double> started, ended;
};

// Every task of every step. Throws std::runtime_error naming the member that is missing or
// of the wrong type.
std::vector<ReportTask> report_tasks(const nlohmann::json& job);
// report_tasks, or nothing with the failure recorded (naming `what` and the missing member).
std::optional<std::vector<ReportTask>> tasks_or_error(const nlohmann::json& job, const std::string& what);

// Sanity of each send's times, and the plan's k (docs/collectives.md: a node starts a send
// only while fewer than k of its sends are under way; k = 1 is the papers' 1-port model):
// one line per problem, empty when there is none. `sends_at_once`: the report's k for a
// dataflow kind; none for a buffered multicast, whose round sends one message to several
// destinations at once, as its paper's model allows.
std::vector<std::string> send_time_problems(const std::vector<ReportTask>& tasks,
                                            std::optional<std::size_t> sends_at_once);

// Folds, by the report's fold orders, what node `node` holds after its combine: its own
// array if it has no combine, else its combine's inputs in order, each the array of the
// node named (its own data when the name is its own, else what that node held after its
// combine, recursively). `arrays` is each node's input array. Throws std::runtime_error
// naming what the report lacks (a combine without "folds", a node with combines of
// different fold orders, a cycle) when the order cannot be derived.
std::string fold_as_reported(const std::vector<ReportTask>& tasks, const std::string& node, const std::string& dtype,
                             const std::string& op, const std::map<std::string, std::string>& arrays);

// The nodes whose data reached `node`'s combine, itself included (its own name when it has
// no combine).
std::set<std::string> folded_nodes(const std::vector<ReportTask>& tasks, const std::string& node);

}  // namespace baton::test
