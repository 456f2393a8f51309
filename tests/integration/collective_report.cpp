#include "tests/integration/collective_report.h"

#include "tests/integration/collective_arrays.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <stdexcept>

namespace baton::test {
namespace {

using Json = nlohmann::json;

const Json& member(const Json& object, const std::string& name, const std::string& where) {
  if (!object.is_object() || !object.contains(name)) throw std::runtime_error(where + " has no \"" + name + "\"");
  return object.at(name);
}

std::optional<double> maybe_number(const Json& object, const std::string& name) {
  if (!object.contains(name)) return std::nullopt;
  return object.at(name).get<double>();
}

// The combine `node` ran, or nullptr when it ran none. Several combines with one fold order
// are one fold cut into segments (docs/collectives.md, "Segments"): each folds its piece
// of the same inputs in the same order.
const ReportTask* combine_of(const std::vector<ReportTask>& tasks, const std::string& node) {
  const ReportTask* found = nullptr;
  for (const ReportTask& t : tasks) {
    if (t.node != node || t.kind != "combine") continue;
    if (found != nullptr && found->folds != t.folds) {
      throw std::runtime_error("node " + node +
                               " has combines of different fold orders: the report does not say which one it sent");
    }
    if (found == nullptr) found = &t;
  }
  if (found != nullptr && found->folds.empty()) {
    throw std::runtime_error("the report gives no fold order (\"folds\") for node " + node + "'s combine");
  }
  return found;
}

std::string fold_from(const std::vector<ReportTask>& tasks, const std::string& node, const std::string& dtype,
                      const std::string& op, const std::map<std::string, std::string>& arrays,
                      std::vector<std::string>& path) {
  if (std::find(path.begin(), path.end(), node) != path.end()) {
    throw std::runtime_error("the report's fold orders form a cycle through node " + node);
  }
  const ReportTask* combine = combine_of(tasks, node);
  if (combine == nullptr) return arrays.at(node);
  path.push_back(node);
  std::vector<std::string> inputs;
  for (const std::string& from : combine->folds) {
    if (!arrays.contains(from)) throw std::runtime_error("node " + node + " folds data of unknown node " + from);
    inputs.push_back(from == node ? arrays.at(node) : fold_from(tasks, from, dtype, op, arrays, path));
  }
  path.pop_back();
  return fold_in_order(dtype, op, inputs);
}

}  // namespace

std::vector<ReportTask> report_tasks(const Json& job) {
  std::vector<ReportTask> tasks;
  const Json& steps = member(member(job, "report", "the job"), "steps", "report");
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const std::string step = "report.steps[" + std::to_string(s) + "]";
    for (const Json& t : member(steps[s], "tasks", step)) {
      ReportTask task;
      task.node = member(t, "node", step + ".tasks[]").get<std::string>();
      const std::string where = step + ".tasks[] of " + task.node;
      task.kind = member(t, "kind", where).get<std::string>();
      task.peer = t.value("peer", "");
      if (t.contains("folds")) task.folds = t.at("folds").get<std::vector<std::string>>();
      task.bytes = member(t, "bytes", where).get<std::uint64_t>();
      task.planned_start = member(t, "planned_start_seconds", where).get<double>();
      task.planned_end = member(t, "planned_end_seconds", where).get<double>();
      task.started = maybe_number(t, "started_seconds");
      task.ended = maybe_number(t, "ended_seconds");
      tasks.push_back(std::move(task));
    }
  }
  return tasks;
}

std::optional<std::vector<ReportTask>> tasks_or_error(const Json& job, const std::string& what) {
  try {
    return report_tasks(job);
  } catch (const std::exception& e) {
    BOOST_ERROR(what << ": the report's tasks: " << e.what());
    return std::nullopt;
  }
}

std::vector<std::string> send_time_problems(const std::vector<ReportTask>& tasks,
                                            std::optional<std::size_t> sends_at_once) {
  std::vector<std::string> problems;
  std::map<std::string, std::vector<const ReportTask*>> sends_by_node;
  for (const ReportTask& t : tasks) {
    if (t.kind != "send") continue;
    const std::string name = "send " + t.node + " -> " + t.peer;
    if (t.peer.empty()) problems.push_back(name + ": no peer");
    if (!(t.planned_start >= 0 && t.planned_end >= t.planned_start)) {
      problems.push_back(name + ": planned " + std::to_string(t.planned_start) + " .. " +
                         std::to_string(t.planned_end));
    }
    if (!t.started || !t.ended) {
      problems.push_back(name + ": no measured start or end");
      continue;
    }
    if (!(*t.started >= 0 && *t.ended >= *t.started)) {
      problems.push_back(name + ": measured " + std::to_string(*t.started) + " .. " + std::to_string(*t.ended));
    }
    if (sends_at_once) sends_by_node[t.node].push_back(&t);
  }
  // At most k sends of a node at once (k = 1: the 1-port model): when each send starts,
  // fewer than k others are still under way (1 ms for the clocks' rounding in the report).
  for (auto& [node, sends] : sends_by_node) {
    for (const ReportTask* s : sends) {
      std::vector<const ReportTask*> under_way;
      for (const ReportTask* other : sends) {
        if (other != s && *other->started <= *s->started && *s->started + 1e-3 < *other->ended) {
          under_way.push_back(other);
        }
      }
      if (under_way.size() >= *sends_at_once) {
        problems.push_back("node " + node + " sent to " + s->peer + " from " + std::to_string(*s->started) +
                           " s while still sending to " + under_way.front()->peer + " until " +
                           std::to_string(*under_way.front()->ended) + " s and " +
                           std::to_string(under_way.size() - 1) + " more (at most " + std::to_string(*sends_at_once) +
                           " at once)");
      }
    }
  }
  return problems;
}

std::string fold_as_reported(const std::vector<ReportTask>& tasks, const std::string& node, const std::string& dtype,
                             const std::string& op, const std::map<std::string, std::string>& arrays) {
  std::vector<std::string> path;
  return fold_from(tasks, node, dtype, op, arrays, path);
}

std::set<std::string> folded_nodes(const std::vector<ReportTask>& tasks, const std::string& node) {
  std::set<std::string> nodes{node};
  std::vector<std::string> pending{node};
  std::set<std::string> seen{node};
  while (!pending.empty()) {
    const std::string next = pending.back();
    pending.pop_back();
    for (const ReportTask& t : tasks) {
      if (t.node != next || t.kind != "combine") continue;
      for (const std::string& from : t.folds) {
        nodes.insert(from);
        if (seen.insert(from).second) pending.push_back(from);
      }
    }
  }
  return nodes;
}

}  // namespace baton::test
