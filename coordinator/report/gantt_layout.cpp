#include "coordinator/report/gantt_layout.h"

#include "coordinator/report/markup.h"
#include "error/error.h"

#include <algorithm>

namespace baton::report {
namespace {

bool redistribution(const PlanReport& report) { return report.kind == "redistribution"; }

std::string title_of(const JobReport& job) {
  const PlanReport& report = *job.report;
  if (!redistribution(report))
    return "Job " + job.id + " · " + report.kind + " · " + report.algorithm + " · " + job.state;
  return "Job " + job.id + " · " + report.algorithm + " · k " + std::to_string(report.k) + " · " + job.state;
}

std::string summary_of(const PlanReport& report) {
  const double predicted = report.predicted_seconds, measured = report.measured_seconds;
  std::string summary = "predicted " + fixed(predicted, 3) + " s · measured " + fixed(measured, 3) + " s";
  if (predicted > 0 && measured > 0) summary += " (×" + fixed(measured / predicted, 2) + ")";
  if (report.model_seconds && !redistribution(report)) summary += " · model " + fixed(*report.model_seconds, 3) + " s";
  if (report.lower_bound_seconds) summary += " · lower bound " + fixed(*report.lower_bound_seconds, 3) + " s";
  return summary + " · " + std::to_string(report.steps.size()) + " steps";
}

// What a task bar says: "send → n3", "combine n2 ⊕ n5 ⊕ n7".
std::string label_of(const TaskLine& task) {
  if (task.kind != "combine") return task.kind + " → " + task.peer;
  std::string folds;
  for (const std::string& f : task.folds) folds += (folds.empty() ? "" : " ⊕ ") + f;
  return "combine " + folds;
}

}  // namespace

GanttLayout gantt_layout(const JobReport& job) {
  if (!job.report) throw error::InvalidInput("job " + job.id + " has no report yet (it has not been planned)");
  const PlanReport& report = *job.report;
  GanttLayout layout;
  layout.title = title_of(job);
  layout.summary = summary_of(report);
  const auto row_of = [&](const std::string& node) {
    const auto it = std::ranges::find(layout.rows, node);
    if (it != layout.rows.end()) return static_cast<std::size_t>(it - layout.rows.begin());
    layout.rows.push_back(node);
    return layout.rows.size() - 1;
  };
  for (const auto* cluster : {&job.senders, &job.receivers}) {
    for (const std::string& node : *cluster) row_of(node);
  }
  for (std::size_t s = 0; s < report.steps.size(); ++s) {
    const StepLine& step = report.steps[s];
    if (!step.nodes) {
      throw error::InvalidInput("job " + job.id + ": step " + std::to_string(s) +
                                " of the report has no per-node timing (\"nodes\"); the coordinator predates it");
    }
    layout.plan_starts.push_back(step.planned_start_seconds);
    layout.end = std::max(layout.end, step.planned_start_seconds + step.predicted_seconds);
    if (step.started_seconds) {
      layout.bands.push_back({s, *step.started_seconds, step.measured_seconds.value_or(0)});
    }
    // A dataflow step: a bar for every send and combine (a receive is its sender's bar).
    for (const TaskLine& task : step.tasks) {
      if (task.kind == "receive") continue;
      const std::size_t row = row_of(task.node);
      const std::string label = label_of(task);
      layout.bars.push_back({row, s, task.planned_start_seconds, task.planned_end_seconds - task.planned_start_seconds,
                             static_cast<double>(task.bytes), false, label});
      if (task.started_seconds && task.ended_seconds) {
        layout.bars.push_back({row, s, *task.started_seconds, *task.ended_seconds - *task.started_seconds,
                               static_cast<double>(task.bytes), true, label});
      }
    }
    if (!step.tasks.empty()) continue;
    for (const NodeLine& node : *step.nodes) {
      const std::size_t row = row_of(node.node);
      layout.bars.push_back({row, s, step.planned_start_seconds, node.planned_seconds,
                             static_cast<double>(node.planned_bytes), false, ""});
      if (step.started_seconds && node.seconds) {
        layout.bars.push_back(
            {row, s, *step.started_seconds, *node.seconds, static_cast<double>(node.bytes.value_or(0)), true, ""});
      }
    }
  }
  for (const GanttBand& b : layout.bands) layout.end = std::max(layout.end, b.start + b.seconds);
  for (const GanttBar& b : layout.bars) layout.end = std::max(layout.end, b.start + b.seconds);
  return layout;
}

}  // namespace baton::report
