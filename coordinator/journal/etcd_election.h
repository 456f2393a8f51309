// The coordinators' leader election on etcd (docs/ha.md): a lease and one transaction on
// one key. The candidate that creates `key`, attached to its lease, leads; the key's create
// revision is its epoch, which fences its journal writes (EtcdJournal::fence). Standbys
// watch the key and campaign again when it goes (deleted on resign, or expired with its
// leader's lease). A leader renews its lease every third of the TTL (each request waits
// at most a quarter of it) and counts itself deposed as soon as a renewal could no longer
// come back within a TTL of the last granted one's sending: etcd's lease cannot lapse
// before that, so the leader stops before a standby can lead.
#pragma once

#include "coordinator/journal/etcd_client.h"
#include "error/refusal.h"
#include "log/log.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace baton::journal {

class EtcdElection {
 public:
  // `candidate`: what the key holds while this coordinator leads (its id and addresses),
  // shown to the standbys. `ttl_seconds`: the lease's, at least 2 (etcd's shortest).
  EtcdElection(EtcdOptions options, std::string key, std::string candidate, std::int64_t ttl_seconds, log::Sink log);
  ~EtcdElection();  // stops renewing; does not resign (a crash does not either)
  EtcdElection(const EtcdElection&) = delete;
  EtcdElection& operator=(const EtcdElection&) = delete;

  // Blocks until this candidate holds the key; returns its epoch (the key's create
  // revision). While another leads, says who once and waits on a watch of the key; while
  // etcd cannot be reached, says why and tries again.
  std::int64_t campaign();

  // After campaign(): renews the lease on a thread of its own; when the lease has expired
  // or a TTL passed without a granted renewal, calls `on_lost` (on that thread) once with
  // the reason, and renews no more.
  void hold(std::function<void(const std::string&)> on_lost);

  // Gives the key up at once (revokes the lease): a standby leads without waiting out the
  // TTL. For a clean stop.
  void resign();

  const std::string& key() const { return key_; }
  std::int64_t epoch() const { return epoch_; }

  // Why this leader may no longer hold the key, or none: a TTL has passed since the sending
  // of the last renewal etcd granted (etcd may have let the lease lapse), or etcd said the
  // lease is gone. From any thread, without a request: asked before each release of a step
  // (docs/ha.md, "Fencing").
  std::optional<error::Refusal> lapsed() const;

 private:
  void renew_loop(std::function<void(const std::string&)> on_lost);

  EtcdClient client_;    // campaign and resign
  EtcdClient renewals_;  // the renewing thread's own
  std::string key_;
  std::string candidate_;
  std::int64_t ttl_seconds_;
  log::Sink log_;
  std::int64_t lease_ = 0;
  std::int64_t epoch_ = 0;
  // The last renewal etcd granted was sent then (written by campaign() and the renewing
  // thread, read by lapsed()).
  std::atomic<std::chrono::steady_clock::time_point> granted_{};
  std::atomic<bool> expired_{false};  // etcd said the lease is gone

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread renewer_;
};

}  // namespace baton::journal
