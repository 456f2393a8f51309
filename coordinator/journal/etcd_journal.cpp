#include "coordinator/journal/etcd_journal.h"

#include "error/error.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace baton::journal {

using Json = nlohmann::json;

namespace {

// Fixed-width decimal, so that keys sort as numbers do.
std::string padded(std::uint64_t n, int width) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%0*llu", width, static_cast<unsigned long long>(n));
  return buf;
}

Json parse_value(const KeyValue& kv) {
  Json value = Json::parse(kv.value, nullptr, false);
  if (!value.is_object()) throw EtcdError("etcd key " + kv.key + " holds no JSON object");
  return value;
}

std::uint64_t id_after(const std::string& key, const std::string& kind_prefix) {
  const std::string digits = key.substr(kind_prefix.size(), 20);
  try {
    return std::stoull(digits);
  } catch (const std::exception&) {
    throw EtcdError("etcd key " + key + " names no id");
  }
}

constexpr int kIdWidth = 20;
constexpr int kStepWidth = 10;

// The step number `kv`'s key ends with, after `prefix`; EtcdError when it names none.
std::uint32_t step_in_key(const KeyValue& kv, const std::string& prefix) {
  try {
    return static_cast<std::uint32_t>(std::stoul(kv.key.substr(prefix.size())));
  } catch (const std::exception&) {
    throw EtcdError("etcd key " + kv.key + " names no step");
  }
}

}  // namespace

EtcdJournal::EtcdJournal(EtcdOptions options, std::string prefix)
    : prefix_(std::move(prefix)), client_(std::move(options)) {
  if (prefix_.empty()) throw error::InvalidInput("etcd journal: the key prefix is empty");
}

void EtcdJournal::fence(std::string key, std::int64_t epoch, std::function<void(const std::string&)> on_lost) {
  std::lock_guard lock(mutex_);
  fence_ = Fence{std::move(key), epoch, std::move(on_lost)};
}

std::string EtcdJournal::where() const {
  std::string endpoints;
  for (const std::string& e : client_.options().endpoints) endpoints += (endpoints.empty() ? "" : ",") + e;
  return "etcd " + endpoints + " under " + prefix_;
}

std::string EtcdJournal::key(const std::string& kind, std::uint64_t id) const {
  return prefix_ + kind + "/" + padded(id, kIdWidth);
}

void EtcdJournal::lose(const std::string& why) {
  if (!fence_->on_lost) return;  // said once
  auto on_lost = std::move(fence_->on_lost);
  fence_->on_lost = nullptr;
  on_lost(why);
}

bool EtcdJournal::write(Json compare, const Json& puts) {
  Json failure = Json::array();
  if (fence_) {
    compare.push_back(etcd::created_at(fence_->key, fence_->epoch));
    failure.push_back(etcd::get(fence_->key));
  }
  TxnResult result;
  try {
    result = client_.txn(compare, puts, failure);
  } catch (const EtcdError& e) {
    // A leader that cannot journal must not go on issuing what it cannot record.
    if (fence_) lose(std::string("a journal write failed: ") + e.what());
    throw;
  }
  if (result.succeeded) return true;
  if (fence_) {
    const std::vector<KeyValue>& holder = result.ranges.at(0);
    if (holder.empty() || holder.front().create_revision != fence_->epoch) {
      const std::string why =
          "the election key " + fence_->key + " is " +
          (holder.empty() ? std::string("gone") : "held at epoch " + std::to_string(holder.front().create_revision)) +
          ", not at this leader's epoch " + std::to_string(fence_->epoch);
      lose(why);
      throw LostLeadership("journal write refused: " + why);
    }
  }
  return false;
}

std::uint64_t EtcdJournal::add_numbered(const std::string& counter,
                                        const std::function<Json(std::uint64_t)>& puts_for) {
  // Only a leader writes, so the counter races only with a stale leader, which its fence
  // stops; a few tries are plenty.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::vector<KeyValue> now = client_.get(counter);
    std::uint64_t last = 0;
    if (!now.empty()) {
      try {
        last = std::stoull(now.front().value);
      } catch (const std::exception&) {
        throw EtcdError("etcd key " + counter + " holds no number");
      }
    }
    const std::uint64_t id = last + 1;
    Json puts = puts_for(id);
    puts.push_back(etcd::put(counter, std::to_string(id)));
    if (write(Json::array({etcd::modified_at(counter, now.empty() ? 0 : now.front().mod_revision)}), puts)) return id;
  }
  throw EtcdError("etcd key " + counter + " kept changing under this coordinator");
}

std::uint64_t EtcdJournal::add_job(const std::string& spec_json, const ObjectIdentities& identities) {
  // As the SQLite journal keeps them: an object its agent did not identify is left out
  // (compared by name, as at submit).
  Json objects = Json::array();
  for (const auto& [object, identity] : identities) {
    if (!identity.empty()) objects.push_back({{"node", object.first}, {"name", object.second}, {"identity", identity}});
  }
  std::lock_guard lock(mutex_);
  const std::string submitted = utc_now();
  return add_numbered(prefix_ + "counter/job", [&](std::uint64_t id) {
    Json puts = Json::array(
        {etcd::put(key("job", id), Json{{"submitted", submitted}}.dump(-1, ' ', false, Json::error_handler_t::replace)),
         etcd::put(key("spec", id), spec_json),
         etcd::put(key("state", id),
                   Json{{"state", "queued"}, {"error", ""}}.dump(-1, ' ', false, Json::error_handler_t::replace))});
    // In the job's own transaction: a job is never resumed without the identities it was
    // accepted on.
    if (!objects.empty()) {
      puts.push_back(etcd::put(key("identities", id),
                               Json{{"objects", objects}}.dump(-1, ' ', false, Json::error_handler_t::replace)));
    }
    return puts;
  });
}

ObjectIdentities EtcdJournal::identities(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  ObjectIdentities out;
  const std::vector<KeyValue> found = client_.get(key("identities", id));
  if (found.empty()) return out;
  const Json value = parse_value(found.front());
  const auto objects = value.find("objects");
  if (objects == value.end() || !objects->is_array()) {
    throw EtcdError("etcd key " + found.front().key + " holds no \"objects\" array");
  }
  for (const Json& object : *objects) {
    const auto text = [&](const char* field) {
      const auto at = object.is_object() ? object.find(field) : object.end();
      if (at == object.end() || !at->is_string()) {
        throw EtcdError("etcd key " + found.front().key + ": an object without a string \"" + field + "\"");
      }
      return at->get<std::string>();
    };
    out[{text("node"), text("name")}] = text("identity");
  }
  return out;
}

void EtcdJournal::set_state(std::uint64_t id, const std::string& state, const std::string& error) {
  if (!known_job_state(state)) throw error::InvalidInput("unknown job state '" + state + "'");
  std::lock_guard lock(mutex_);
  if (!write(Json::array({etcd::exists(key("job", id))}),
             Json::array({etcd::put(key("state", id), Json{{"state", state}, {"error", error}}.dump(
                                                          -1, ' ', false, Json::error_handler_t::replace))}))) {
    throw error::InvalidInput("no job " + std::to_string(id));
  }
}

void EtcdJournal::set_report(std::uint64_t id, const std::string& report_json) {
  std::lock_guard lock(mutex_);
  if (!write(Json::array({etcd::exists(key("job", id))}), Json::array({etcd::put(key("report", id), report_json)}))) {
    throw error::InvalidInput("no job " + std::to_string(id));
  }
}

void EtcdJournal::record_step(std::uint64_t id, const StepRecord& step) {
  const Json value{{"attempts", step.attempts},
                   {"predicted", step.predicted},
                   {"measured", step.measured},
                   {"bytes", step.bytes},
                   {"finished", step.finished}};
  std::lock_guard lock(mutex_);
  if (!write(Json::array({etcd::exists(key("job", id))}),
             Json::array({etcd::put(key("step", id) + "/" + padded(step.step, kStepWidth),
                                    value.dump(-1, ' ', false, Json::error_handler_t::replace))}))) {
    throw error::InvalidInput("no job " + std::to_string(id));
  }
}

std::vector<JobRecord> EtcdJournal::jobs() {
  std::lock_guard lock(mutex_);
  // One transaction of four ranges: one revision's view of every job.
  const TxnResult all = client_.txn(
      Json::array(), Json::array({etcd::get_prefix(prefix_ + "job/"), etcd::get_prefix(prefix_ + "spec/"),
                                  etcd::get_prefix(prefix_ + "state/"), etcd::get_prefix(prefix_ + "report/")}));
  std::map<std::uint64_t, JobRecord> by_id;
  for (const KeyValue& kv : all.ranges.at(0)) {
    const std::uint64_t id = id_after(kv.key, prefix_ + "job/");
    JobRecord& record = by_id[id];
    record.id = id;
    record.submitted = parse_value(kv).value("submitted", "");
  }
  for (const KeyValue& kv : all.ranges.at(1)) {
    if (auto at = by_id.find(id_after(kv.key, prefix_ + "spec/")); at != by_id.end()) at->second.spec = kv.value;
  }
  for (const KeyValue& kv : all.ranges.at(2)) {
    if (auto at = by_id.find(id_after(kv.key, prefix_ + "state/")); at != by_id.end()) {
      const Json state = parse_value(kv);
      at->second.state = state.value("state", "");
      at->second.error = state.value("error", "");
    }
  }
  for (const KeyValue& kv : all.ranges.at(3)) {
    if (auto at = by_id.find(id_after(kv.key, prefix_ + "report/")); at != by_id.end()) at->second.report = kv.value;
  }
  std::vector<JobRecord> out;
  for (auto& [id, record] : by_id) out.push_back(std::move(record));
  return out;
}

std::optional<JobRecord> EtcdJournal::job(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  const TxnResult one =
      client_.txn(Json::array(), Json::array({etcd::get(key("job", id)), etcd::get(key("spec", id)),
                                              etcd::get(key("state", id)), etcd::get(key("report", id))}));
  if (one.ranges.at(0).empty()) return std::nullopt;
  JobRecord record;
  record.id = id;
  record.submitted = parse_value(one.ranges[0].front()).value("submitted", "");
  if (!one.ranges.at(1).empty()) record.spec = one.ranges[1].front().value;
  if (!one.ranges.at(2).empty()) {
    const Json state = parse_value(one.ranges[2].front());
    record.state = state.value("state", "");
    record.error = state.value("error", "");
  }
  if (!one.ranges.at(3).empty()) record.report = one.ranges[3].front().value;
  return record;
}

std::vector<std::pair<std::uint32_t, Json>> EtcdJournal::by_step(const std::string& kind, std::uint64_t id) {
  std::lock_guard lock(mutex_);
  const std::string prefix = key(kind, id) + "/";
  std::vector<std::pair<std::uint32_t, Json>> out;
  for (const KeyValue& kv : client_.get_prefix(prefix)) out.emplace_back(step_in_key(kv, prefix), parse_value(kv));
  return out;
}

std::vector<StepRecord> EtcdJournal::steps(std::uint64_t id) {
  std::vector<StepRecord> out;
  for (const auto& [step, v] : by_step("step", id)) {
    out.push_back({.step = step,
                   .attempts = v.value("attempts", 0u),
                   .predicted = v.value("predicted", 0.0),
                   .measured = v.value("measured", 0.0),
                   .bytes = v.value("bytes", std::uint64_t{0}),
                   .finished = v.value("finished", "")});
  }
  return out;
}

std::vector<std::uint64_t> EtcdJournal::unfinished() {
  std::lock_guard lock(mutex_);
  std::vector<std::uint64_t> out;
  for (const KeyValue& kv : client_.get_prefix(prefix_ + "state/")) {
    const std::string state = parse_value(kv).value("state", "");
    if (state == "queued" || state == "planning" || state == "running")
      out.push_back(id_after(kv.key, prefix_ + "state/"));
  }
  return out;
}

std::uint64_t EtcdJournal::add_calibration(const std::string& request_json) {
  std::lock_guard lock(mutex_);
  const std::string requested = utc_now();
  return add_numbered(prefix_ + "counter/calibration", [&](std::uint64_t id) {
    return Json::array(
        {etcd::put(key("calibration", id), Json{{"requested", requested}, {"request", request_json}}.dump(
                                               -1, ' ', false, Json::error_handler_t::replace)),
         etcd::put(key("calibration_state", id),
                   Json{{"state", "queued"}, {"error", ""}, {"finished", ""}, {"result", ""}}.dump(
                       -1, ' ', false, Json::error_handler_t::replace))});
  });
}

void EtcdJournal::set_calibration(std::uint64_t id, CalibrationState state, const std::string& error,
                                  const std::string& result_json) {
  const Json value{{"state", std::string(name(state))},
                   {"error", error},
                   {"finished", ended(state) ? utc_now() : std::string()},
                   {"result", result_json}};
  std::lock_guard lock(mutex_);
  if (!write(Json::array({etcd::exists(key("calibration", id))}),
             Json::array({etcd::put(key("calibration_state", id),
                                    value.dump(-1, ' ', false, Json::error_handler_t::replace))}))) {
    throw error::InvalidInput("no calibration " + std::to_string(id));
  }
}

std::vector<CalibrationRecord> EtcdJournal::calibrations() {
  std::lock_guard lock(mutex_);
  const TxnResult all = client_.txn(Json::array(), Json::array({etcd::get_prefix(prefix_ + "calibration/"),
                                                                etcd::get_prefix(prefix_ + "calibration_state/")}));
  std::map<std::uint64_t, CalibrationRecord> by_id;
  for (const KeyValue& kv : all.ranges.at(0)) {
    const std::uint64_t id = id_after(kv.key, prefix_ + "calibration/");
    const Json v = parse_value(kv);
    CalibrationRecord& record = by_id[id];
    record.id = id;
    record.requested = v.value("requested", "");
    record.request = v.value("request", "");
  }
  for (const KeyValue& kv : all.ranges.at(1)) {
    const auto at = by_id.find(id_after(kv.key, prefix_ + "calibration_state/"));
    if (at == by_id.end()) continue;
    const Json v = parse_value(kv);
    const std::string state = v.value("state", "");
    const std::optional<CalibrationState> known = parse_calibration_state(state);
    std::string error = v.value("error", "");
    if (!known) error = "the journal holds an unknown state '" + state + "'" + (error.empty() ? "" : ": " + error);
    at->second.state = known.value_or(CalibrationState::failed);
    at->second.error = error;
    at->second.finished = v.value("finished", "");
    at->second.result = v.value("result", "");
  }
  std::vector<CalibrationRecord> out;
  for (auto& [id, record] : by_id) out.push_back(std::move(record));
  return out;
}

void EtcdJournal::add_replan(std::uint64_t job, const ReplanRecord& replan) {
  const std::string at = key("replan", job) + "/" + padded(replan.at_step, kStepWidth);
  std::lock_guard lock(mutex_);
  if (!write(Json::array({etcd::exists(key("job", job)), etcd::created_at(at, 0)}),
             Json::array({etcd::put(at, Json{{"platform", replan.platform}, {"record", replan.record}}.dump(
                                            -1, ' ', false, Json::error_handler_t::replace))}))) {
    throw error::InvalidInput("job " + std::to_string(job) + ": no such job, or a re-plan at step " +
                              std::to_string(replan.at_step) + " already");
  }
}

std::vector<ReplanRecord> EtcdJournal::replans(std::uint64_t job) {
  std::vector<ReplanRecord> out;
  for (const auto& [at_step, v] : by_step("replan", job)) {
    out.push_back({at_step, v.value("platform", ""), v.value("record", "")});
  }
  return out;
}

}  // namespace baton::journal
