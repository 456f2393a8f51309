// Text for people from the coordinator's JSON answers (docs/runtime.md): pure functions,
// so the formatting is unit-tested without a server. Missing fields show as "-".
#pragma once

#include "coordinator/json/input.h"

#include <string>
#include <vector>

namespace baton::batonctl {

// Columns padded to their widest cell, separated by two spaces; one line per row.
std::string format_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);

std::string format_seconds(double seconds);  // "2.600"

// A job's field: job[name], else job["progress"][name]; nullptr when neither exists.
const json::Json* job_field(const json::Json& job, const std::string& name);

// `GET /v1/jobs` and `GET /v1/agents` answers as tables; the agents' table is followed by
// a line for each peer refused at the handshake ("refused: ADDRESS claiming to be node N:
// wrong cluster secret (attempts: A, the last S s ago)").
std::string jobs_table(const json::Json& answer);
std::string agents_table(const json::Json& answer);

// `GET /v1/jobs/{id}` as "key: value" lines, followed by the report when there is one.
std::string job_status_text(const json::Json& job);

// What a job has moved: "bytes_done" (its finished steps') plus "step_bytes_done" (the
// running step's so far); false when the answer has neither.
bool bytes_done(const json::Json& job, double* out);

// One progress line: state, step i/n, bytes done/total, rate, ETA. rate < 0 = unknown.
// Bytes done: "bytes_done" (the finished steps') plus "step_bytes_done" (the running
// step's so far, as the agents report it).
std::string progress_line(const json::Json& job, double bytes_per_second);

// The report: a table per step (index, flows, bytes, predicted s, measured s, attempts) and
// a totals line "total: measured X s, predicted Y s, lower bound Z s, measured/predicted R",
// then report_notes.
std::string report_text(const json::Json& report);

// Lines "note: ..." explaining figures a reader would take for errors: all-at-once's
// unpaced times, a measured time below the lower bound. Empty when there is none.
std::string report_notes(const json::Json& report);

// The report's steps node by node: one row per node with a flow in a step (step, node,
// planned start, planned s, planned bytes, started, measured s, bytes); "-" where the step
// has not run. Empty when the report has no per-node timing.
std::string nodes_table(const json::Json& report);

}  // namespace baton::batonctl
