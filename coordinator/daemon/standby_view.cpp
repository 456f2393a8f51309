#include "coordinator/daemon/standby_view.h"

#include "coordinator/daemon/calibrations.h"
#include "coordinator/daemon/job_view.h"
#include "coordinator/daemon/journaled_job.h"
#include "coordinator/daemon/request_error.h"
#include "coordinator/daemon/shown_job.h"
#include "coordinator/report/status_page.h"

#include <chrono>

namespace baton::coordinator {
namespace {

// The job as the journal holds it; a state this build does not know reads as failed,
// saying so.
std::unique_ptr<TrackedJob> view_of(journal::Store& journal, journal::JobRecord record, const log::Logger& log) {
  const std::optional<JobState> state = parse_job_state(record.state);
  if (!state) {
    record.error = "the journal holds state \"" + record.state + "\", which this coordinator does not know";
    return ended_job(journal, record, JobState::failed, log);
  }
  return ended(*state) ? ended_job(journal, record, *state, log) : unfinished_job(journal, record, *state);
}

}  // namespace

StandbyView::StandbyView(journal::Store& journal, log::Sink log) : journal_(journal), log_(std::move(log)) {}

StandbyView::Json StandbyView::jobs() {
  const std::lock_guard lock(mutex_);
  Json list = Json::array();
  for (journal::JobRecord& record : journal_.jobs()) list.push_back(job_summary_json(*view_of(journal_, record, log_)));
  return Json{{"jobs", std::move(list)}};
}

StandbyView::Json StandbyView::job(std::uint64_t id) {
  const std::lock_guard lock(mutex_);
  return report::to_json(report_of(id));
}

report::JobReport StandbyView::report_of(std::uint64_t id) {
  std::optional<journal::JobRecord> record = journal_.job(id);
  if (!record) throw RequestError(RequestFailure::not_found, "no job " + std::to_string(id));
  return job_report(*view_of(journal_, *record, log_), Clock::time_point{});
}

StandbyView::Json StandbyView::calibrations() {
  const std::lock_guard lock(mutex_);
  Calibrations all(journal_);
  all.read();
  return report::calibration_list_json(all.lines());
}

StandbyView::Json StandbyView::calibration(std::uint64_t id) {
  const std::lock_guard lock(mutex_);
  Calibrations all(journal_);
  all.read();
  const TrackedCalibration* c = all.find(id);
  if (!c) throw RequestError(RequestFailure::not_found, "no calibration " + std::to_string(id));
  return report::to_json(Calibrations::report(*c));
}

std::string StandbyView::status_page(const std::string* id, const std::string& status, int& http_status) {
  report::StatusPage page;
  page.coordinator = status;
  page.agents = agents_json({}, {}, std::chrono::steady_clock::now());
  page.jobs = jobs();  // before the lock: jobs() takes it
  const std::lock_guard lock(mutex_);
  Calibrations all(journal_);
  all.read();
  if (const TrackedCalibration* c = all.latest_done()) page.calibration = Calibrations::report(*c);
  http_status = show_job(page, id, [this](std::uint64_t number) { return report_of(number); });
  return report::status_page_html(page);
}

}  // namespace baton::coordinator
