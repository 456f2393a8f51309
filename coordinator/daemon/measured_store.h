// A journal store whose every call is timed (docs/metrics.md: baton_journal_write_seconds,
// baton_journal_read_seconds): what the driver and a standby's view write and read goes
// through it to the real store (SQLite or etcd), unchanged.
#pragma once

#include "coordinator/journal/journal.h"

#include <functional>
#include <string_view>

namespace baton::coordinator {

class MeasuredStore final : public journal::Store {
 public:
  // `took(write, seconds)`: after each call (one that threw too), whether it wrote and
  // how long it took; on the caller's thread.
  using Observer = std::function<void(bool write, double seconds)>;
  MeasuredStore(journal::Store& store, Observer took) : store_(store), took_(std::move(took)) {}

  using Store::add_job;
  std::uint64_t add_job(const std::string& spec_json, const journal::ObjectIdentities& identities) override;
  journal::ObjectIdentities identities(std::uint64_t id) override;
  void set_state(std::uint64_t id, const std::string& state, const std::string& error = "") override;
  void set_report(std::uint64_t id, const std::string& report_json) override;
  void record_step(std::uint64_t id, const journal::StepRecord& step) override;
  std::vector<journal::JobRecord> jobs() override;
  std::optional<journal::JobRecord> job(std::uint64_t id) override;
  std::vector<journal::StepRecord> steps(std::uint64_t id) override;
  std::vector<std::uint64_t> unfinished() override;
  std::uint64_t add_calibration(const std::string& request_json) override;
  void set_calibration(std::uint64_t id, journal::CalibrationState state, const std::string& error = "",
                       const std::string& result_json = "") override;
  std::vector<journal::CalibrationRecord> calibrations() override;
  void add_replan(std::uint64_t job, const journal::ReplanRecord& replan) override;
  std::vector<journal::ReplanRecord> replans(std::uint64_t job) override;
  std::string where() const override { return store_.where(); }
  std::string_view kind() const override { return store_.kind(); }

 private:
  // Runs `call` on the store, timed as a write or a read.
  template <typename Call>
  auto timed(bool write, Call&& call);

  journal::Store& store_;
  Observer took_;
};

}  // namespace baton::coordinator
