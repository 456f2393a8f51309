// The coordinator's journal (docs/runtime.md "The journal", docs/journal.md): every job
// and every step's outcome, durable when each call returns, so a restarted coordinator (or
// a standby that takes over, docs/ha.md) can resume the unfinished jobs. `Store` is what
// the coordinator writes and reads; `Journal` keeps it in one SQLite file (the default),
// `EtcdJournal` (etcd_journal.h) in etcd under a key prefix.
#pragma once

#include "coordinator/calibration/calibration_state.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace SQLite {
class Database;
}

namespace baton::journal {

struct JobRecord {
  std::uint64_t id = 0;
  std::string submitted;  // UTC, ISO 8601 ("2026-11-22T07:50:00Z")
  std::string spec;       // the job's JSON as submitted
  std::string state;      // queued, planning, running, done, failed, cancelled
  std::string error;      // why it failed; empty otherwise
  std::string report;     // a finished job's final report (the API's JSON); empty before
};

struct StepRecord {
  std::uint32_t step = 0;
  std::uint32_t attempts = 0;
  double predicted = 0;  // seconds, the model's
  double measured = 0;   // seconds, on the wire
  std::uint64_t bytes = 0;
  std::string finished;  // UTC, ISO 8601, when it completed; empty: not (yet) finished
};

// Where a calibration stands: the journal writes it as name() says.
using calibration::CalibrationState;
using calibration::ended;
using calibration::name;
using calibration::parse_calibration_state;

// A calibration of the platform (docs/calibration.md), as requested and as it ended.
struct CalibrationRecord {
  std::uint64_t id = 0;
  std::string requested;  // UTC, ISO 8601
  std::string request;    // its JSON as posted
  CalibrationState state = CalibrationState::queued;
  std::string error;
  std::string finished;  // UTC, ISO 8601, when it ended; empty before
  std::string result;    // the calibration's JSON once done (GET /v1/calibrations/ID); empty before
};

// Which file each (node, name) of a job is, as its agents answered at submit
// (ObjectInfo.identity; jobs::LearntIdentities has the same shape): a resumed job decides
// its staging and aliases on these, as the job did when it was accepted.
using ObjectIdentities = std::map<std::pair<std::string, std::string>, std::string>;

// A job's re-plan on drift: from step `at_step` on, the job ran a plan of what remained
// made on `platform`, so a resumed job rebuilds the same plan.
struct ReplanRecord {
  std::uint32_t at_step = 0;
  std::string platform;  // JSON: sender_rate, receiver_rate, backbone_rate, step_startup
  std::string record;    // JSON: the report's entry (when, why, old and new k, predictions)
};

// Whether `state` is a job state the journal keeps: queued, planning, running, done,
// failed, cancelled.
bool known_job_state(std::string_view state);

// What every store keeps and answers, the same way (the tests of each store check the
// same contract: tests/journal/).
class Store {
 public:
  virtual ~Store() = default;

  // A new job in state "queued" with the identities of its files, written together (one
  // transaction); returns its id (ids only increase, never reused).
  virtual std::uint64_t add_job(const std::string& spec_json, const ObjectIdentities& identities) = 0;
  // A job whose files no agent identified. An overload, not a default argument: a
  // default on a virtual would be read from the caller's static type.
  std::uint64_t add_job(const std::string& spec_json) { return add_job(spec_json, {}); }
  // The identities add_job kept for the job; empty for a job without (or journaled before
  // they were kept).
  virtual ObjectIdentities identities(std::uint64_t id) = 0;
  // Throws error::InvalidInput for an unknown job or state.
  virtual void set_state(std::uint64_t id, const std::string& state, const std::string& error = "") = 0;
  // Keeps a finished job's final report, so a restarted coordinator can show it. Throws
  // error::InvalidInput for an unknown job.
  virtual void set_report(std::uint64_t id, const std::string& report_json) = 0;
  // Inserts or replaces the step's record. Throws error::InvalidInput for an unknown job.
  virtual void record_step(std::uint64_t id, const StepRecord& step) = 0;

  virtual std::vector<JobRecord> jobs() = 0;  // by id
  virtual std::optional<JobRecord> job(std::uint64_t id) = 0;
  virtual std::vector<StepRecord> steps(std::uint64_t id) = 0;  // by step
  virtual std::vector<std::uint64_t> unfinished() = 0;          // queued, planning or running, by id

  // A new calibration in state "queued"; returns its id (ids only increase).
  virtual std::uint64_t add_calibration(const std::string& request_json) = 0;
  // Throws error::InvalidInput for an unknown calibration. Ending it (done, failed,
  // cancelled) stamps `finished`. A state the store holds that this build does not know
  // (written by hand) reads as failed, saying so in its error.
  virtual void set_calibration(std::uint64_t id, CalibrationState state, const std::string& error = "",
                               const std::string& result_json = "") = 0;
  virtual std::vector<CalibrationRecord> calibrations() = 0;  // by id

  // Throws error::InvalidInput for an unknown job or a second re-plan at the same step.
  virtual void add_replan(std::uint64_t job, const ReplanRecord& replan) = 0;
  virtual std::vector<ReplanRecord> replans(std::uint64_t job) = 0;  // by step

  // Where the records are, for the logs: a file, or etcd's endpoints and the prefix.
  virtual std::string where() const = 0;
  // Which store it is, for the metrics' `store` label: "sqlite" or "etcd".
  virtual std::string_view kind() const = 0;
};

// The SQLite store: one file, one coordinator.
class Journal final : public Store {
 public:
  // 2: jobs.report; 3: calibrations and replans; 4: identities. Older files are migrated
  // on open.
  static constexpr int kSchemaVersion = 4;

  // Opens or creates the journal at `path`. Throws error::SystemError naming the path
  // when the file is not SQLite, is another schema version, or cannot be opened.
  explicit Journal(const std::filesystem::path& path);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  using Store::add_job;
  std::uint64_t add_job(const std::string& spec_json, const ObjectIdentities& identities) override;
  // Empty for a job journaled before schema 4.
  ObjectIdentities identities(std::uint64_t id) override;
  // Throws error::InvalidInput for an unknown job or state.
  void set_state(std::uint64_t id, const std::string& state, const std::string& error = "") override;
  // Keeps a finished job's final report, so a restarted coordinator can show it. Throws
  // error::InvalidInput for an unknown job.
  void set_report(std::uint64_t id, const std::string& report_json) override;
  // Inserts or replaces the step's row. Throws error::InvalidInput for an unknown job.
  void record_step(std::uint64_t id, const StepRecord& step) override;

  std::vector<JobRecord> jobs() override;  // by id
  std::optional<JobRecord> job(std::uint64_t id) override;
  std::vector<StepRecord> steps(std::uint64_t id) override;  // by step
  std::vector<std::uint64_t> unfinished() override;          // queued, planning or running, by id

  // A new calibration in state "queued"; returns its id (ids only increase).
  std::uint64_t add_calibration(const std::string& request_json) override;
  // Throws error::InvalidInput for an unknown calibration. Ending it (done, failed,
  // cancelled) stamps `finished`. A state the file holds that this build does not know
  // (written by hand) reads as failed, saying so in its error.
  void set_calibration(std::uint64_t id, CalibrationState state, const std::string& error = "",
                       const std::string& result_json = "") override;
  std::vector<CalibrationRecord> calibrations() override;  // by id

  // Throws error::InvalidInput for an unknown job or a second re-plan at the same step.
  void add_replan(std::uint64_t job, const ReplanRecord& replan) override;
  std::vector<ReplanRecord> replans(std::uint64_t job) override;  // by step

  const std::filesystem::path& path() const { return path_; }
  std::string where() const override { return path_.string(); }
  std::string_view kind() const override { return "sqlite"; }

 private:
  std::filesystem::path path_;
  std::mutex mutex_;  // one call at a time on the connection
  std::unique_ptr<SQLite::Database> db_;
};

// The current time as the journal writes it.
std::string utc_now();

}  // namespace baton::journal
