#include "coordinator/journal/etcd_election.h"

#include "error/error.h"

#include <algorithm>

namespace baton::journal {

using Json = nlohmann::json;
using std::chrono::steady_clock;

namespace {

// A renewal must come back well within the TTL to be of use: no request of the election
// waits longer than a quarter of it.
EtcdOptions with_timeout(EtcdOptions options, std::int64_t ttl_seconds) {
  options.timeout = std::min(options.timeout, std::chrono::milliseconds(ttl_seconds * 1000 / 4));
  return options;
}

}  // namespace

EtcdElection::EtcdElection(EtcdOptions options, std::string key, std::string candidate, std::int64_t ttl_seconds,
                           log::Sink log)
    : client_(with_timeout(options, ttl_seconds)), renewals_(with_timeout(options, ttl_seconds)), key_(std::move(key)),
      candidate_(std::move(candidate)), ttl_seconds_(ttl_seconds), log_(std::move(log)) {
  if (ttl_seconds_ < 2 || ttl_seconds_ > 3600)
    throw error::InvalidInput("the leader lease's TTL must be within [2, 3600] s");
}

EtcdElection::~EtcdElection() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (renewer_.joinable()) renewer_.join();
}

std::int64_t EtcdElection::campaign() {
  std::string said;  // the last thing said, so a long wait says it once
  const auto say = [&](log::Level level, const std::string& line) {
    if (line == said) return;
    said = line;
    log::write(log_, level, line);
  };
  for (;;) {
    try {
      const std::vector<KeyValue> holder = client_.get(key_);
      if (!holder.empty()) {
        say(log::Level::info, "standby: " + holder.front().value + " leads (epoch " +
                                  std::to_string(holder.front().create_revision) + ", " + key_ + ")");
        client_.wait_deleted(key_, holder.front().mod_revision + 1, std::chrono::seconds(ttl_seconds_));
        continue;  // deleted, or time to look again
      }
      const steady_clock::time_point sent = steady_clock::now();
      const std::int64_t lease = client_.grant_lease(ttl_seconds_);
      const TxnResult won =
          client_.txn(Json::array({etcd::created_at(key_, 0)}), Json::array({etcd::put(key_, candidate_, lease)}));
      if (won.succeeded) {
        lease_ = lease;
        epoch_ = won.revision;
        granted_ = sent;
        return epoch_;
      }
      client_.revoke_lease(lease);  // another was quicker
    } catch (const EtcdError& e) {
      say(log::Level::warning, std::string("standby: cannot campaign: ") + e.what() + "; trying again");
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, std::chrono::milliseconds(500));
    }
  }
}

void EtcdElection::hold(std::function<void(const std::string&)> on_lost) {
  renewer_ = std::thread([this, on_lost = std::move(on_lost)]() mutable { renew_loop(std::move(on_lost)); });
}

void EtcdElection::renew_loop(std::function<void(const std::string&)> on_lost) {
  const steady_clock::duration ttl = std::chrono::seconds(ttl_seconds_);
  const steady_clock::duration timeout = renewals_.options().timeout;
  bool failed = false;
  std::string trouble;
  for (;;) {
    {
      const steady_clock::time_point next =
          failed ? steady_clock::now() + std::chrono::milliseconds(200) : granted_.load() + ttl / 3;
      std::unique_lock lock(mutex_);
      if (wake_.wait_until(lock, next, [&] { return stopping_; })) return;
    }
    // A renewal that could come back only after the lease may have lapsed is of no use:
    // stop leading now rather than lead past the lease.
    if (steady_clock::now() + timeout >= granted_.load() + ttl) {
      on_lost("no renewal of the leader lease granted in time (" + std::to_string(ttl_seconds_) + " s TTL" +
              (trouble.empty() ? std::string(")") : "; " + trouble + ")"));
      return;
    }
    const steady_clock::time_point sent = steady_clock::now();
    try {
      if (renewals_.keep_alive(lease_) <= 0) {
        expired_ = true;
        on_lost("the leader lease " + std::to_string(lease_) + " expired in etcd");
        return;
      }
      granted_ = sent;
      failed = false;
      trouble.clear();
    } catch (const EtcdError& e) {
      failed = true;
      trouble = e.what();
      log::write(log_, log::Level::warning, "leader: cannot renew the lease: " + trouble);
    }
  }
}

std::optional<error::Refusal> EtcdElection::lapsed() const {
  if (expired_) return "the leader lease " + std::to_string(lease_) + " expired in etcd";
  if (steady_clock::now() >= granted_.load() + std::chrono::seconds(ttl_seconds_))
    return "no renewal of the leader lease granted within its TTL (" + std::to_string(ttl_seconds_) + " s)";
  return std::nullopt;
}

void EtcdElection::resign() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (renewer_.joinable()) renewer_.join();
  if (lease_ != 0) {
    try {
      client_.revoke_lease(lease_);
    } catch (const EtcdError& e) {
      log::write(log_, log::Level::warning,
                 std::string("leader: could not resign (the key expires with its lease): ") + e.what());
    }
  }
  lease_ = 0;
}

}  // namespace baton::journal
