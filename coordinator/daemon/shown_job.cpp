#include "coordinator/daemon/shown_job.h"

#include "coordinator/daemon/record_id.h"
#include "coordinator/daemon/request_error.h"

#include <optional>

namespace baton::coordinator {

int show_job(report::StatusPage& page, const std::string* id,
             const std::function<report::JobReport(std::uint64_t)>& report_of) {
  const auto& listed = page.jobs.at("jobs");
  const std::string shown = id ? *id : listed.empty() ? "" : listed.back().at("id").get<std::string>();
  if (shown.empty()) return 200;
  try {
    const std::optional<std::uint64_t> number = parse_record_id(shown);
    if (!number) throw RequestError(RequestFailure::not_found, "no job " + shown);
    page.job = report_of(*number);
  } catch (const RequestError& e) {
    page.error = e.what();
    return http_status(e.failure());
  }
  return 200;
}

}  // namespace baton::coordinator
