// The coordinator's status page (docs/status-page.md): one self-contained HTML document
// (embedded CSS; no scripts, no external assets) listing the agents and the jobs and, for
// one job, its figures, its Gantt chart (gantt_svg.h) inline and its steps. Rendered from
// the API's own answers (docs/runtime.md; the job and the calibration as their typed
// reports, JobReport and CalibrationReport), so it shows what batonctl shows.
#pragma once

#include "coordinator/report/calibration_report.h"
#include "coordinator/report/job_report.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace baton::report {

struct StatusPage {
  std::string coordinator;                       // the driver's status line, "idle, 0 job(s) queued"
  nlohmann::ordered_json agents;                 // GET /v1/agents
  nlohmann::ordered_json jobs;                   // GET /v1/jobs
  std::optional<JobReport> job;                  // GET /v1/jobs/{id} of the job shown, or none
  std::optional<CalibrationReport> calibration;  // GET /v1/calibrations/{id} of the newest done, or none
  std::string error;                             // shown in place of the job ("no job 12"), or empty
  int refresh_seconds = 3;                       // the page reloads itself this often; 0: never
  std::size_t max_jobs = 50;                     // the newest this many jobs are listed
};

// The whole page. Every text that comes from a job or an agent is HTML-escaped.
std::string status_page_html(const StatusPage& page);

}  // namespace baton::report
