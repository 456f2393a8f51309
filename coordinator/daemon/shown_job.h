// The job a status page shows (docs/status-page.md): the one its address names, else the
// newest listed. The leader's API and a standby's view both fill their pages with it.
#pragma once

#include "coordinator/report/job_report.h"
#include "coordinator/report/status_page.h"

#include <cstdint>
#include <functional>
#include <string>

namespace baton::coordinator {

// Sets page.job to report_of(the shown job's number) — `id` when given, else the last of
// page.jobs — or, when there is no such job (report_of throws RequestError), page.error to
// why ("no job 12"). Returns the page's HTTP status: 200, or the error's.
int show_job(report::StatusPage& page, const std::string* id,
             const std::function<report::JobReport(std::uint64_t)>& report_of);

}  // namespace baton::coordinator
