#include "coordinator/daemon/config.h"

#include "config/toml_field.h"
#include "error/error.h"
#include "protocol/handshake.h"

#include <fstream>
#include <string>
#include <vector>

namespace baton::coordinator {

namespace {

// A file a key names, relative to the configuration's directory; error::InvalidInput naming
// the key when it cannot be read.
std::string readable_file(const toml::table& file, const char* key, const std::filesystem::path& base) {
  const std::filesystem::path named = baton::config::required_field<std::string>(file, key);
  const std::filesystem::path path = named.is_absolute() ? named : base / named;
  if (!std::ifstream(path).good()) throw error::InvalidInput(std::string(key) + ": cannot read " + path.string());
  return path.string();
}

// TLS and authentication to etcd (docs/ha.md, "TLS and authentication").
journal::EtcdSecurity etcd_security(const toml::table& file, const EtcdConfig& etcd,
                                    const std::filesystem::path& base) {
  journal::EtcdSecurity security;
  bool any_https = false;
  for (const std::string& e : etcd.endpoints) any_https = any_https || e.rfind("https://", 0) == 0;
  for (const auto& [key, path] :
       {std::pair{"etcd_ca_file", &security.ca_file}, std::pair{"etcd_cert_file", &security.cert_file},
        std::pair{"etcd_key_file", &security.key_file}}) {
    if (!file.contains(key)) continue;
    if (!any_https) throw error::InvalidInput(std::string(key) + " is set but no etcd_endpoints is https://");
    *path = readable_file(file, key, base);
  }
  if (file.contains("etcd_cert_file") != file.contains("etcd_key_file"))
    throw error::InvalidInput("etcd_cert_file and etcd_key_file go together (mutual TLS): set both or neither");
  security.user = baton::config::field_or<std::string>(file, "etcd_user", "");
  if (file.contains("etcd_user") && security.user.empty()) throw error::InvalidInput("etcd_user is empty");
  if (file.contains("etcd_password_file") && security.user.empty())
    throw error::InvalidInput("etcd_password_file is set but etcd_user is not");
  if (!security.user.empty()) {
    if (!file.contains("etcd_password_file"))
      throw error::InvalidInput("etcd_user needs etcd_password_file (the password in a file, one line)");
    std::ifstream in(readable_file(file, "etcd_password_file", base));
    std::getline(in, security.password);
    while (!security.password.empty() && (security.password.back() == '\r' || security.password.back() == ' '))
      security.password.pop_back();
    if (security.password.empty()) throw error::InvalidInput("etcd_password_file: the file's first line is empty");
  }
  return security;
}

// journal = "sqlite" (the default) or "etcd" with its keys; etcd keys without it are a
// mistake worth naming.
std::optional<EtcdConfig> etcd_config(const toml::table& file, const std::filesystem::path& base) {
  const auto journal = baton::config::field_or<std::string>(file, "journal", "sqlite");
  if (journal == "sqlite") {
    for (const char* key : {"etcd_endpoints", "etcd_prefix", "etcd_timeout_seconds", "leader_ttl_seconds",
                            "etcd_ca_file", "etcd_cert_file", "etcd_key_file", "etcd_user", "etcd_password_file"}) {
      if (file.contains(key)) throw error::InvalidInput(std::string(key) + " is set but journal is not \"etcd\"");
    }
    return std::nullopt;
  }
  if (journal != "etcd") throw error::InvalidInput("journal must be \"sqlite\" or \"etcd\", not \"" + journal + "\"");
  EtcdConfig etcd;
  if (!file.contains("etcd_endpoints")) throw error::InvalidInput("journal = \"etcd\" needs etcd_endpoints");
  etcd.endpoints = baton::config::required_field<std::vector<std::string>>(file, "etcd_endpoints");
  if (etcd.endpoints.empty()) throw error::InvalidInput("etcd_endpoints is empty");
  for (const std::string& e : etcd.endpoints) {
    if (!(e.rfind("http://", 0) == 0 && e.size() > 7) && !(e.rfind("https://", 0) == 0 && e.size() > 8))
      throw error::InvalidInput("etcd_endpoints: '" + e + "' is not http://host:port or https://host:port");
  }
  etcd.prefix = baton::config::field_or<std::string>(file, "etcd_prefix", etcd.prefix);
  if (etcd.prefix.empty() || etcd.prefix.back() != '/')
    throw error::InvalidInput("etcd_prefix must end with '/' (\"/baton/<cluster>/\"), not \"" + etcd.prefix + "\"");
  const double timeout = baton::config::field_or<double>(file, "etcd_timeout_seconds", 5.0);
  if (!(timeout >= 0.1 && timeout <= 60)) throw error::InvalidInput("etcd_timeout_seconds must be within [0.1, 60]");
  etcd.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(timeout * 1000));
  etcd.leader_ttl_seconds = baton::config::field_or<std::int64_t>(file, "leader_ttl_seconds", etcd.leader_ttl_seconds);
  if (etcd.leader_ttl_seconds < 2 || etcd.leader_ttl_seconds > 3600)
    throw error::InvalidInput("leader_ttl_seconds must be within [2, 3600] (etcd keeps no shorter lease)");
  etcd.security = etcd_security(file, etcd, base);
  return etcd;
}

}  // namespace

CoordinatorConfig load_coordinator_config(const std::filesystem::path& path) {
  try {
    const toml::table file = baton::config::parse_file(path);
    baton::config::check_known_keys(file, {"id",
                                           "agent_address",
                                           "api_address",
                                           "secret_file",
                                           "api_token_file",
                                           "state_dir",
                                           "heartbeat_seconds",
                                           "max_heartbeats_per_second",
                                           "log_level",
                                           "collective_startup",
                                           "drift_threshold",
                                           "drift_steps",
                                           "drift_min_seconds",
                                           "replan_on_drift",
                                           "self_paced_steps",
                                           "min_step_timeout_seconds",
                                           "widen_after_steps",
                                           "widen_factor",
                                           "widen_budget",
                                           "max_queued_jobs",
                                           "max_queued_calibrations",
                                           "max_running_jobs",
                                           "max_jobs_per_node",
                                           "journal",
                                           "etcd_endpoints",
                                           "etcd_prefix",
                                           "etcd_timeout_seconds",
                                           "leader_ttl_seconds",
                                           "etcd_ca_file",
                                           "etcd_cert_file",
                                           "etcd_key_file",
                                           "etcd_user",
                                           "etcd_password_file"});
    CoordinatorConfig config;
    config.id = baton::config::field_or<std::string>(file, "id", config.id);
    config.agent_address = baton::config::field_or<std::string>(file, "agent_address", config.agent_address);
    config.api_address = baton::config::field_or<std::string>(file, "api_address", config.api_address);
    config.state_dir = baton::config::field_or<std::string>(file, "state_dir", config.state_dir.string());
    const double heartbeat = baton::config::field_or<double>(file, "heartbeat_seconds", 1.0);
    if (!(heartbeat >= 0.05 && heartbeat <= 60))
      throw error::InvalidInput("heartbeat_seconds must be within [0.05, 60]");
    config.heartbeat.every = std::chrono::milliseconds(static_cast<std::int64_t>(heartbeat * 1000));
    config.heartbeat.max_per_second =
        baton::config::field_or<double>(file, "max_heartbeats_per_second", config.heartbeat.max_per_second);
    if (!(config.heartbeat.max_per_second >= 1 && config.heartbeat.max_per_second <= 1e6))
      throw error::InvalidInput("max_heartbeats_per_second must be within [1, 1000000]");
    const std::filesystem::path base = path.parent_path();
    const auto relative = [&](const std::string& p) {
      return std::filesystem::path(p).is_absolute() ? p : (base / p).string();
    };
    config.secret = protocol::load_secret(relative(baton::config::required_field<std::string>(file, "secret_file")));
    if (file.contains("api_token_file")) {
      config.api_token =
          protocol::load_secret(relative(baton::config::required_field<std::string>(file, "api_token_file")));
    }
    if (config.state_dir.is_relative()) config.state_dir = base / config.state_dir;
    config.log_level = baton::config::log_level_field(file);
    config.drift.threshold = baton::config::field_or<double>(file, "drift_threshold", config.drift.threshold);
    if (!(config.drift.threshold > 0 && config.drift.threshold < 10))
      throw error::InvalidInput("drift_threshold must be within (0, 10): a fraction of a step's predicted time");
    const auto steps = baton::config::field_or<std::int64_t>(file, "drift_steps", config.drift.steps);
    if (steps < 1 || steps > 1000) throw error::InvalidInput("drift_steps must be within [1, 1000]");
    config.drift.steps = static_cast<int>(steps);
    config.drift.min_seconds = baton::config::field_or<double>(file, "drift_min_seconds", config.drift.min_seconds);
    if (!(config.drift.min_seconds >= 0 && config.drift.min_seconds <= 3600))
      throw error::InvalidInput("drift_min_seconds must be within [0, 3600]");
    const auto widen_after = baton::config::field_or<std::int64_t>(file, "widen_after_steps", config.drift.widen_after);
    if (widen_after < 0 || widen_after > 1000) throw error::InvalidInput("widen_after_steps must be within [0, 1000]");
    config.drift.widen_after = static_cast<int>(widen_after);
    config.drift.widen_factor = baton::config::field_or<double>(file, "widen_factor", config.drift.widen_factor);
    if (!(config.drift.widen_factor > 1 && config.drift.widen_factor <= 100))
      throw error::InvalidInput("widen_factor must be within (1, 100]: how much wider a trial's backbone is");
    config.drift.widen_budget = baton::config::field_or<double>(file, "widen_budget", config.drift.widen_budget);
    if (!(config.drift.widen_budget >= 0 && config.drift.widen_budget <= 1))
      throw error::InvalidInput(
          "widen_budget must be within [0, 1]: the share of a job's predicted time failed trials may cost");
    config.replan_on_drift = baton::config::field_or<bool>(file, "replan_on_drift", config.replan_on_drift);
    config.self_paced_steps = baton::config::field_or<bool>(file, "self_paced_steps", config.self_paced_steps);
    const double min_step_timeout = baton::config::field_or<double>(file, "min_step_timeout_seconds", 30.0);
    if (!(min_step_timeout >= 1 && min_step_timeout <= 86'400))
      throw error::InvalidInput("min_step_timeout_seconds must be within [1, 86400]");
    config.min_step_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(min_step_timeout * 1000));
    config.collective_startup = baton::config::field_or<double>(file, "collective_startup", config.collective_startup);
    if (!(config.collective_startup >= 0 && config.collective_startup <= 60)) {
      throw error::InvalidInput("collective_startup must be within [0, 60] seconds");
    }
    const auto cap = [&](const char* key, std::size_t fallback, std::int64_t most) {
      const auto value = baton::config::field_or<std::int64_t>(file, key, static_cast<std::int64_t>(fallback));
      if (value < 1 || value > most)
        throw error::InvalidInput(std::string(key) + " must be within [1, " + std::to_string(most) + "]");
      return static_cast<std::size_t>(value);
    };
    config.max_queued_jobs = cap("max_queued_jobs", config.max_queued_jobs, 100'000);
    config.max_queued_calibrations = cap("max_queued_calibrations", config.max_queued_calibrations, 1'000);
    config.max_running_jobs = cap("max_running_jobs", config.max_running_jobs, 10'000);
    config.max_jobs_per_node = cap("max_jobs_per_node", config.max_jobs_per_node, 64);
    config.etcd = etcd_config(file, base);
    return config;
  } catch (const std::exception& e) {
    throw error::InvalidInput("configuration " + path.string() + ": " + e.what());
  }
}

}  // namespace baton::coordinator
