// The journal in etcd (docs/ha.md): every record the SQLite journal keeps, under a key
// prefix per cluster, each write one transaction. A leader's store is fenced: each write
// also compares the election key's create revision with the leader's epoch, so a leader
// that lost its lease can write nothing more.
#pragma once

#include "coordinator/journal/etcd_client.h"
#include "coordinator/journal/journal.h"
#include "error/error.h"

#include <functional>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace baton::journal {

// A fenced write found the election key gone or held by another epoch.
class LostLeadership : public error::Error {
 public:
  using error::Error::Error;
};

class EtcdJournal final : public Store {
 public:
  // `prefix`: every key starts with it ("/baton/<cluster>/"); not empty. Reaching etcd is
  // left to the first call (an EtcdError then).
  EtcdJournal(EtcdOptions options, std::string prefix);

  // From now on every write holds only while `key` was created at `epoch` (the election
  // key this coordinator holds); a write that finds otherwise calls `on_lost` once and
  // throws LostLeadership. A write that etcd does not answer (no member reachable) calls
  // `on_lost` too, and throws EtcdError: a leader that cannot journal stops leading.
  void fence(std::string key, std::int64_t epoch, std::function<void(const std::string&)> on_lost);
  // From any thread, even while a write waits: that write and every later call fail at once
  // (EtcdClient::abandon). A deposed leader's, so that no write holds it past its lease.
  void abandon(const std::string& why) { client_.abandon(why); }

  using Store::add_job;
  std::uint64_t add_job(const std::string& spec_json, const ObjectIdentities& identities) override;
  ObjectIdentities identities(std::uint64_t id) override;
  void set_state(std::uint64_t id, const std::string& state, const std::string& error = "") override;
  void set_report(std::uint64_t id, const std::string& report_json) override;
  void record_step(std::uint64_t id, const StepRecord& step) override;
  std::vector<JobRecord> jobs() override;
  std::optional<JobRecord> job(std::uint64_t id) override;
  std::vector<StepRecord> steps(std::uint64_t id) override;
  std::vector<std::uint64_t> unfinished() override;
  std::uint64_t add_calibration(const std::string& request_json) override;
  void set_calibration(std::uint64_t id, CalibrationState state, const std::string& error = "",
                       const std::string& result_json = "") override;
  std::vector<CalibrationRecord> calibrations() override;
  void add_replan(std::uint64_t job, const ReplanRecord& replan) override;
  std::vector<ReplanRecord> replans(std::uint64_t job) override;
  std::string where() const override;
  std::string_view kind() const override { return "etcd"; }

  const std::string& prefix() const { return prefix_; }

 private:
  struct Fence {
    std::string key;
    std::int64_t epoch = 0;
    std::function<void(const std::string&)> on_lost;
  };

  // One write: `compare` (the fence added) and `puts`. True when it happened; false when
  // a comparison of the caller's failed; LostLeadership when the fence did.
  bool write(nlohmann::json compare, const nlohmann::json& puts);
  // A new id from the counter at `counter`, written with `puts_for(id)` in one
  // transaction.
  void lose(const std::string& why);  // calls the fence's on_lost, once
  std::uint64_t add_numbered(const std::string& counter, const std::function<nlohmann::json(std::uint64_t)>& puts_for);
  std::string key(const std::string& kind, std::uint64_t id) const;
  // The JSON values under key(kind, id) + "/", each with the step number its key ends
  // with, by step (the keys' fixed width sorts them).
  std::vector<std::pair<std::uint32_t, nlohmann::json>> by_step(const std::string& kind, std::uint64_t id);

  std::string prefix_;
  std::mutex mutex_;  // one call at a time on the client
  EtcdClient client_;
  std::optional<Fence> fence_;
};

}  // namespace baton::journal
