// What a standby coordinator answers to the API's reads (docs/ha.md, "Agents and
// operators"): the jobs and calibrations as the shared journal holds them now, read again
// at each request, in the same JSON the leader answers. The leader holds more in memory
// (a running job's plan and live progress, its agents); the standby shows the journal's
// view: each job's state, finished steps and, once ended, its final report.
//
// Threading: any thread (one request at a time reads the store).
#pragma once

#include "coordinator/journal/journal.h"
#include "coordinator/report/job_report.h"
#include "log/log.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <mutex>

namespace baton::coordinator {

class StandbyView {
 public:
  using Json = nlohmann::ordered_json;

  StandbyView(journal::Store& journal, log::Sink log);

  Json jobs();                         // GET /v1/jobs
  Json job(std::uint64_t id);          // GET /v1/jobs/ID; RequestError(not_found) for an unknown job
  Json calibrations();                 // GET /v1/calibrations
  Json calibration(std::uint64_t id);  // GET /v1/calibrations/ID; RequestError(not_found)
  // GET / (`id` null: the newest job) and /jobs/ID: the status page, headed by `status`
  // (what this coordinator does), with no agents (they register with the leader). An
  // unknown job is said on the page; `http_status` is set to 200, or to 404 for an unknown
  // job, as the leader does.
  std::string status_page(const std::string* id, const std::string& status, int& http_status);

 private:
  report::JobReport report_of(std::uint64_t id);  // the caller holds mutex_

  std::mutex mutex_;
  journal::Store& journal_;
  log::Logger log_;
};

}  // namespace baton::coordinator
