#include "coordinator/journal/journal.h"

#include "error/error.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <array>
#include <chrono>
#include <ctime>
#include <limits>

namespace baton::journal {

namespace {

constexpr std::array<const char*, 6> kStates{"queued", "planning", "running", "done", "failed", "cancelled"};

constexpr const char* kSchema = R"sql(
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  submitted TEXT NOT NULL,
  spec TEXT NOT NULL,
  state TEXT NOT NULL,
  error TEXT NOT NULL DEFAULT '',
  report TEXT NOT NULL DEFAULT ''
);
CREATE TABLE steps (
  job INTEGER NOT NULL REFERENCES jobs(id),
  step INTEGER NOT NULL,
  attempts INTEGER NOT NULL,
  predicted REAL NOT NULL,
  measured REAL NOT NULL,
  bytes INTEGER NOT NULL,
  finished TEXT,
  PRIMARY KEY (job, step)
);
)sql";

// Schema 2 → 3 (and part of a new file's schema): calibrations, and the re-plans of jobs.
constexpr const char* kCalibrationsAndReplans = R"sql(
CREATE TABLE calibrations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  requested TEXT NOT NULL,
  request TEXT NOT NULL,
  state TEXT NOT NULL,
  error TEXT NOT NULL DEFAULT '',
  finished TEXT NOT NULL DEFAULT '',
  result TEXT NOT NULL DEFAULT ''
);
CREATE TABLE replans (
  job INTEGER NOT NULL REFERENCES jobs(id),
  at_step INTEGER NOT NULL,
  platform TEXT NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (job, at_step)
);
)sql";

// Schema 3 → 4 (and part of a new file's schema): which file each of a job's names is.
constexpr const char* kIdentities = R"sql(
CREATE TABLE identities (
  job INTEGER NOT NULL REFERENCES jobs(id),
  node TEXT NOT NULL,
  name TEXT NOT NULL,
  identity TEXT NOT NULL,
  PRIMARY KEY (job, node, name)
);
)sql";

std::int64_t to_sql_id(std::uint64_t id) {
  if (id > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    throw error::InvalidInput("no job " + std::to_string(id));
  return static_cast<std::int64_t>(id);
}

// Schema 1 → 2: a finished job's final report.
constexpr const char* kMigrateFrom1 = "ALTER TABLE jobs ADD COLUMN report TEXT NOT NULL DEFAULT ''";

constexpr const char* kJobColumns = "SELECT id, submitted, spec, state, error, report FROM jobs";

JobRecord read_job(SQLite::Statement& q) {
  return {static_cast<std::uint64_t>(q.getColumn(0).getInt64()),
          q.getColumn(1).getString(),
          q.getColumn(2).getString(),
          q.getColumn(3).getString(),
          q.getColumn(4).getString(),
          q.getColumn(5).getString()};
}

}  // namespace

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Journal::Journal(const std::filesystem::path& path) : path_(path) {
  auto fail = [&](const std::string& what) { return error::SystemError("journal " + path_.string() + ": " + what); };
  try {
    db_ = std::make_unique<SQLite::Database>(path_.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db_->setBusyTimeout(5000);
    // WAL: a commit is one append to the log; FULL: fsync it before the commit returns.
    if (db_->execAndGet("PRAGMA journal_mode=WAL").getString() != "wal") throw fail("cannot switch to WAL mode");
    db_->exec("PRAGMA synchronous=FULL");
    db_->exec("PRAGMA foreign_keys=ON");

    // Create the schema once; IMMEDIATE so two processes opening a new file don't race.
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    const int version = db_->execAndGet("PRAGMA user_version").getInt();
    if (version == 0) {
      if (db_->execAndGet("SELECT count(*) FROM sqlite_master").getInt() != 0)
        throw fail("not a Baton journal (schema_version 0 but the file has tables)");
      db_->exec(kSchema);
      db_->exec(kCalibrationsAndReplans);
      db_->exec(kIdentities);
    } else if (version < 1 || version > kSchemaVersion) {
      throw fail("schema_version " + std::to_string(version) + ", expected " + std::to_string(kSchemaVersion));
    } else {
      if (version < 2) db_->exec(kMigrateFrom1);
      if (version < 3) db_->exec(kCalibrationsAndReplans);
      if (version < 4) db_->exec(kIdentities);
    }
    db_->exec("PRAGMA user_version=" + std::to_string(kSchemaVersion));
    tx.commit();
  } catch (const SQLite::Exception& e) {
    throw fail(e.what());
  }
}

Journal::~Journal() = default;

std::uint64_t Journal::add_job(const std::string& spec_json, const ObjectIdentities& identities) {
  std::lock_guard lock(mutex_);
  // One transaction: a job is never resumed without the identities it was accepted on.
  SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
  SQLite::Statement q(*db_, "INSERT INTO jobs (submitted, spec, state) VALUES (?, ?, 'queued')");
  q.bind(1, utc_now());
  q.bind(2, spec_json);
  q.exec();
  const std::int64_t id = db_->getLastInsertRowid();
  SQLite::Statement add(*db_, "INSERT INTO identities (job, node, name, identity) VALUES (?, ?, ?, ?)");
  for (const auto& [object, identity] : identities) {
    if (identity.empty()) continue;  // not answered: compared by name, as at submit
    add.bind(1, id);
    add.bind(2, object.first);
    add.bind(3, object.second);
    add.bind(4, identity);
    add.exec();
    add.reset();
  }
  tx.commit();
  return static_cast<std::uint64_t>(id);
}

ObjectIdentities Journal::identities(std::uint64_t id) {
  ObjectIdentities out;
  if (id > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return out;
  std::lock_guard lock(mutex_);
  SQLite::Statement q(*db_, "SELECT node, name, identity FROM identities WHERE job = ?");
  q.bind(1, static_cast<std::int64_t>(id));
  while (q.executeStep()) out[{q.getColumn(0).getString(), q.getColumn(1).getString()}] = q.getColumn(2).getString();
  return out;
}

bool known_job_state(std::string_view state) {
  for (const char* s : kStates) {
    if (state == s) return true;
  }
  return false;
}

void Journal::set_state(std::uint64_t id, const std::string& state, const std::string& error) {
  if (!known_job_state(state)) throw error::InvalidInput("unknown job state '" + state + "'");
  std::lock_guard lock(mutex_);
  SQLite::Statement q(*db_, "UPDATE jobs SET state = ?, error = ? WHERE id = ?");
  q.bind(1, state);
  q.bind(2, error);
  q.bind(3, to_sql_id(id));
  if (q.exec() == 0) throw error::InvalidInput("no job " + std::to_string(id));
}

void Journal::set_report(std::uint64_t id, const std::string& report_json) {
  std::lock_guard lock(mutex_);
  SQLite::Statement q(*db_, "UPDATE jobs SET report = ? WHERE id = ?");
  q.bind(1, report_json);
  q.bind(2, to_sql_id(id));
  if (q.exec() == 0) throw error::InvalidInput("no job " + std::to_string(id));
}

void Journal::record_step(std::uint64_t id, const StepRecord& step) {
  if (step.bytes > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    throw error::InvalidInput("step " + std::to_string(step.step) + ": bytes exceed 2^63");
  std::lock_guard lock(mutex_);
  SQLite::Statement q(*db_,
                      "INSERT INTO steps (job, step, attempts, predicted, measured, bytes, finished) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (job, step) DO UPDATE SET "
                      "attempts = excluded.attempts, predicted = excluded.predicted, "
                      "measured = excluded.measured, bytes = excluded.bytes, finished = excluded.finished");
  q.bind(1, to_sql_id(id));
  q.bind(2, static_cast<std::int64_t>(step.step));
  q.bind(3, static_cast<std::int64_t>(step.attempts));
  q.bind(4, step.predicted);
  q.bind(5, step.measured);
  q.bind(6, static_cast<std::int64_t>(step.bytes));
  if (step.finished.empty()) q.bind(7);
  else q.bind(7, step.finished);
  try {
    q.exec();
  } catch (const SQLite::Exception& e) {
    if ((e.getErrorCode() & 0xff) == SQLITE_CONSTRAINT) throw error::InvalidInput("no job " + std::to_string(id));
    throw;
  }
}

std::vector<JobRecord> Journal::jobs() {
  std::lock_guard lock(mutex_);
  SQLite::Statement q(*db_, std::string(kJobColumns) + " ORDER BY id");
  std::vector<JobRecord> out;
  while (q.executeStep()) out.push_back(read_job(q));
  return out;
}

std::optional<JobRecord> Journal::job(std::uint64_t id) {
  if (id > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
  std::lock_guard lock(mutex_);
  SQLite::Statement q(*db_, std::string(kJobColumns) + " WHERE id = ?");
  q.bind(1, static_cast<std::int64_t>(id));
  if (!q.executeStep()) return std::nullopt;
  return read_job(q);
}

std::vector<StepRecord> Journal::steps(std::uint64_t id) {
  std::vector<StepRecord> out;
  if (id > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return out;
  std::lock_guard lock(mutex_);
  SQLite::Statement q(*db_,
                      "SELECT step, attempts, predicted, measured, bytes, coalesce(finished, '') "
                      "FROM steps WHERE job = ? ORDER BY step");
  q.bind(1, static_cast<std::int64_t>(id));
  while (q.executeStep()) {
    out.push_back({static_cast<std::uint32_t>(q.getColumn(0).getInt64()),
                   static_cast<std::uint32_t>(q.getColumn(1).getInt64()), q.getColumn(2).getDouble(),
                   q.getColumn(3).getDouble(), static_cast<std::uint64_t>(q.getColumn(4).getInt64()),
                   q.getColumn(5).getString()});
  }
  return out;
}

std::uint64_t Journal::add_calibration(const std::string& request_json) {
  std::lock_guard lock(mutex_);
  SQLite::Statement q(*db_, "INSERT INTO calibrations (requested, request, state) VALUES (?, ?, 'queued')");
  q.bind(1, utc_now());
  q.bind(2, request_json);
  q.exec();
  return static_cast<std::uint64_t>(db_->getLastInsertRowid());
}

void Journal::set_calibration(std::uint64_t id, CalibrationState state, const std::string& error,
                              const std::string& result_json) {
  std::lock_guard lock(mutex_);
  SQLite::Statement q(*db_, "UPDATE calibrations SET state = ?, error = ?, result = ?, finished = ? WHERE id = ?");
  q.bind(1, std::string(name(state)));
  q.bind(2, error);
  q.bind(3, result_json);
  q.bind(4, ended(state) ? utc_now() : std::string());
  q.bind(5, to_sql_id(id));
  if (q.exec() == 0) throw error::InvalidInput("no calibration " + std::to_string(id));
}

std::vector<CalibrationRecord> Journal::calibrations() {
  std::lock_guard lock(mutex_);
  SQLite::Statement q(*db_,
                      "SELECT id, requested, request, state, error, finished, result FROM calibrations ORDER BY id");
  std::vector<CalibrationRecord> out;
  while (q.executeStep()) {
    const std::string state = q.getColumn(3).getString();
    const std::optional<CalibrationState> known = parse_calibration_state(state);
    std::string error = q.getColumn(4).getString();
    if (!known) error = "the journal holds an unknown state '" + state + "'" + (error.empty() ? "" : ": " + error);
    out.push_back({static_cast<std::uint64_t>(q.getColumn(0).getInt64()), q.getColumn(1).getString(),
                   q.getColumn(2).getString(), known.value_or(CalibrationState::failed), error,
                   q.getColumn(5).getString(), q.getColumn(6).getString()});
  }
  return out;
}

void Journal::add_replan(std::uint64_t job, const ReplanRecord& replan) {
  std::lock_guard lock(mutex_);
  SQLite::Statement q(*db_, "INSERT INTO replans (job, at_step, platform, record) VALUES (?, ?, ?, ?)");
  q.bind(1, to_sql_id(job));
  q.bind(2, static_cast<std::int64_t>(replan.at_step));
  q.bind(3, replan.platform);
  q.bind(4, replan.record);
  try {
    q.exec();
  } catch (const SQLite::Exception& e) {
    if ((e.getErrorCode() & 0xff) == SQLITE_CONSTRAINT)
      throw error::InvalidInput("job " + std::to_string(job) + ": no such job, or a re-plan at step " +
                                std::to_string(replan.at_step) + " already");
    throw;
  }
}

std::vector<ReplanRecord> Journal::replans(std::uint64_t job) {
  std::vector<ReplanRecord> out;
  if (job > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return out;
  std::lock_guard lock(mutex_);
  SQLite::Statement q(*db_, "SELECT at_step, platform, record FROM replans WHERE job = ? ORDER BY at_step");
  q.bind(1, static_cast<std::int64_t>(job));
  while (q.executeStep()) {
    out.push_back({static_cast<std::uint32_t>(q.getColumn(0).getInt64()), q.getColumn(1).getString(),
                   q.getColumn(2).getString()});
  }
  return out;
}

std::vector<std::uint64_t> Journal::unfinished() {
  std::lock_guard lock(mutex_);
  SQLite::Statement q(*db_, "SELECT id FROM jobs WHERE state IN ('queued', 'planning', 'running') ORDER BY id");
  std::vector<std::uint64_t> out;
  while (q.executeStep()) out.push_back(static_cast<std::uint64_t>(q.getColumn(0).getInt64()));
  return out;
}

}  // namespace baton::journal
