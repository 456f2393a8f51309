// Text for people from the coordinator's answers (docs/runtime.md): pure functions, so the
// formatting is unit-tested without a server. A job and its report come typed
// (coordinator/report/job_report.h); what has not happened yet shows as "-".
#pragma once

#include "coordinator/json/input.h"
#include "coordinator/report/job_report.h"

#include <string>
#include <vector>

namespace baton::batonctl {

// Columns padded to their widest cell, separated by two spaces; one line per row.
std::string format_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);

std::string format_seconds(double seconds);  // "2.600"

// `GET /v1/jobs` and `GET /v1/agents` answers as tables; the jobs' DONE counts the running
// step's bytes so far ("step_bytes_done"); the agents' table is followed by a line for each
// peer refused at the handshake ("refused: ADDRESS claiming to be node N: wrong cluster
// secret (attempts: A, the last S s ago)").
std::string jobs_table(const json::Json& answer);
std::string agents_table(const json::Json& answer);

// A job as "key: value" lines, followed by the report when there is one.
std::string job_status_text(const report::JobReport& job);

// One progress line: state, step i/n, bytes done/total, rate, ETA. rate < 0 = unknown.
// Bytes done: the finished steps' plus the running step's so far, as the agents report it.
std::string progress_line(const report::JobReport& job, double bytes_per_second);

// The report: a table per step (index, flows, bytes, predicted s, measured s, attempts) and
// a totals line "total: measured X s, predicted Y s, lower bound Z s, measured/predicted R"
// (a collective's also names its kind, and the paper model's time: "model M s"), then
// report_notes.
std::string report_text(const report::PlanReport& report);

// Lines "note: ..." explaining figures a reader would take for errors: all-at-once's
// unpaced times, a measured time below the lower bound. Empty when there is none.
std::string report_notes(const report::PlanReport& report);

// The report's steps node by node: one row per node with a flow in a step (step, node,
// planned start, planned s, planned bytes, started, measured s, bytes); "-" where the step
// has not run. Empty when the report has no per-node timing.
std::string nodes_table(const report::PlanReport& report);

// A collective's tasks (dataflow steps): one row per task (node, id, kind, peer or the
// folded nodes, bytes, planned start and end, measured start and end), times since the job
// started. Empty for a redistribution.
std::string tasks_table(const report::PlanReport& report);

}  // namespace baton::batonctl
