// baton-coordinator's configuration file (TOML; systemd/coordinator.toml is the example).
#pragma once

#include "coordinator/calibration/drift.h"
#include "coordinator/daemon/heartbeat_policy.h"
#include "coordinator/journal/etcd_client.h"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace baton::coordinator {

// The journal in etcd and the leader election (docs/ha.md): `journal = "etcd"` and the
// etcd_* keys.
struct EtcdConfig {
  std::vector<std::string> endpoints;       // etcd_endpoints: client URLs, "http://host:port"
  std::string prefix = "/baton/default/";   // etcd_prefix: one per cluster, ends with '/'
  std::chrono::milliseconds timeout{5000};  // etcd_timeout_seconds: one request's
  std::int64_t leader_ttl_seconds = 5;      // leader_ttl_seconds: the leader lease's TTL
  // etcd_ca_file, etcd_cert_file, etcd_key_file (paths, checked readable), etcd_user and
  // the password read from etcd_password_file.
  journal::EtcdSecurity security{};
};

struct CoordinatorConfig {
  std::string id = "coordinator";
  std::string agent_address = "127.0.0.1:7071";                    // where agents connect
  std::string api_address = "127.0.0.1:7070";                      // batonctl's HTTP API
  std::string secret;                                              // read from secret_file
  std::string api_token;                                           // read from api_token_file; empty: no token
  std::filesystem::path state_dir = "/var/lib/baton-coordinator";  // journal.sqlite lives here
  // journal = "etcd": the journal in etcd, a leader elected among the coordinators sharing
  // the prefix; unset (journal = "sqlite"): journal.sqlite in state_dir, one coordinator.
  std::optional<EtcdConfig> etcd;
  HeartbeatPolicy heartbeat{};     // heartbeat_seconds, max_heartbeats_per_second
  std::string log_level = "info";  // "info" or "debug"; re-read on SIGHUP
  // Drift (docs/calibration.md): drift_threshold, drift_steps, drift_min_seconds, the
  // trials of a wider backbone (widen_after_steps, widen_factor, widen_budget), and replan_on_drift for
  // jobs that do not say.
  calibration::DriftOptions drift{};
  bool replan_on_drift = true;
  // Lockstep jobs run their steps self-paced (docs/runtime.md, "Self-paced steps"), the
  // default; false: every step released and reported through the coordinator.
  bool self_paced_steps = true;
  // The least step timeout (DriverOptions::min_step_timeout): a step times out after
  // max(this, 4 x its expected time).
  std::chrono::milliseconds min_step_timeout{30'000};
  // β of the collectives' models: the fixed cost of starting one transfer, in seconds
  // (docs/collectives.md, "From the model to the nodes": on kept connections a send costs
  // no more than its bytes, so 1 ms, not the 5 ms a new connection per transfer cost).
  double collective_startup = 0.001;
  // The queues an API client grows (docs/runtime.md, "Configuration"): jobs and
  // calibrations waiting to run; past them a request is refused with 429.
  std::size_t max_queued_jobs = 256;
  std::size_t max_queued_calibrations = 4;
  // Jobs running at once, on disjoint nodes (docs/runtime.md, "Jobs at once").
  std::size_t max_running_jobs = 64;
  // Jobs that may share one node, each paced at its share (docs/runtime.md, "Jobs that
  // share nodes"); 1: a job waits for its nodes to be free.
  std::size_t max_jobs_per_node = 1;
};

// Reads the file; throws error::InvalidInput naming the file, and the key and line where
// the TOML library can tell, for anything missing, mistyped or unknown.
CoordinatorConfig load_coordinator_config(const std::filesystem::path& path);

}  // namespace baton::coordinator
