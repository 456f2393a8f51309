#include "coordinator/daemon/measured_store.h"

#include <chrono>

namespace baton::coordinator {

template <typename Call>
auto MeasuredStore::timed(bool write, Call&& call) {
  struct Timer {
    const Observer& took;
    bool write;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    ~Timer() { took(write, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()); }
  } timer{took_, write};
  return call();
}

std::uint64_t MeasuredStore::add_job(const std::string& spec_json, const journal::ObjectIdentities& identities) {
  return timed(true, [&] { return store_.add_job(spec_json, identities); });
}

journal::ObjectIdentities MeasuredStore::identities(std::uint64_t id) {
  return timed(false, [&] { return store_.identities(id); });
}

void MeasuredStore::set_state(std::uint64_t id, const std::string& state, const std::string& error) {
  timed(true, [&] { store_.set_state(id, state, error); });
}

void MeasuredStore::set_report(std::uint64_t id, const std::string& report_json) {
  timed(true, [&] { store_.set_report(id, report_json); });
}

void MeasuredStore::record_step(std::uint64_t id, const journal::StepRecord& step) {
  timed(true, [&] { store_.record_step(id, step); });
}

std::vector<journal::JobRecord> MeasuredStore::jobs() {
  return timed(false, [&] { return store_.jobs(); });
}

std::optional<journal::JobRecord> MeasuredStore::job(std::uint64_t id) {
  return timed(false, [&] { return store_.job(id); });
}

std::vector<journal::StepRecord> MeasuredStore::steps(std::uint64_t id) {
  return timed(false, [&] { return store_.steps(id); });
}

std::vector<std::uint64_t> MeasuredStore::unfinished() {
  return timed(false, [&] { return store_.unfinished(); });
}

std::uint64_t MeasuredStore::add_calibration(const std::string& request_json) {
  return timed(true, [&] { return store_.add_calibration(request_json); });
}

void MeasuredStore::set_calibration(std::uint64_t id, journal::CalibrationState state, const std::string& error,
                                    const std::string& result_json) {
  timed(true, [&] { store_.set_calibration(id, state, error, result_json); });
}

std::vector<journal::CalibrationRecord> MeasuredStore::calibrations() {
  return timed(false, [&] { return store_.calibrations(); });
}

void MeasuredStore::add_replan(std::uint64_t job, const journal::ReplanRecord& replan) {
  timed(true, [&] { store_.add_replan(job, replan); });
}

std::vector<journal::ReplanRecord> MeasuredStore::replans(std::uint64_t job) {
  return timed(false, [&] { return store_.replans(job); });
}

}  // namespace baton::coordinator
