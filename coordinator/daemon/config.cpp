#include "coordinator/daemon/config.h"

#include "config/toml_field.h"
#include "protocol/handshake.h"

#include <toml.hpp>

#include <set>

namespace baton::coordinator {

CoordinatorConfig load_coordinator_config(const std::filesystem::path& path) {
  try {
    const toml::value file = baton::config::parse_file(path);
    const std::set<std::string> known{
        "id",        "agent_address",     "api_address", "secret_file",       "api_token_file",
        "state_dir", "heartbeat_seconds", "log_level",   "collective_startup"};
    for (const auto& [key, value] : file.as_table()) {
      if (!known.contains(key)) throw std::runtime_error("unknown key '" + key + "'");
    }
    CoordinatorConfig config;
    config.id = baton::config::field_or<std::string>(file, "id", config.id);
    config.agent_address = baton::config::field_or<std::string>(file, "agent_address", config.agent_address);
    config.api_address = baton::config::field_or<std::string>(file, "api_address", config.api_address);
    config.state_dir = baton::config::field_or<std::string>(file, "state_dir", config.state_dir.string());
    const double heartbeat = baton::config::field_or<double>(file, "heartbeat_seconds", 1.0);
    if (!(heartbeat >= 0.05 && heartbeat <= 60))
      throw std::runtime_error("heartbeat_seconds must be within [0.05, 60]");
    config.heartbeat = std::chrono::milliseconds(static_cast<std::int64_t>(heartbeat * 1000));
    const std::filesystem::path base = path.parent_path();
    const auto relative = [&](const std::string& p) {
      return std::filesystem::path(p).is_absolute() ? p : (base / p).string();
    };
    config.secret = protocol::load_secret(relative(toml::find<std::string>(file, "secret_file")));
    if (file.contains("api_token_file")) {
      config.api_token = protocol::load_secret(relative(toml::find<std::string>(file, "api_token_file")));
    }
    if (config.state_dir.is_relative()) config.state_dir = base / config.state_dir;
    config.log_level = baton::config::log_level_field(file);
    config.collective_startup = baton::config::field_or<double>(file, "collective_startup", config.collective_startup);
    if (!(config.collective_startup >= 0 && config.collective_startup <= 60)) {
      throw std::runtime_error("collective_startup must be within [0, 60] seconds");
    }
    return config;
  } catch (const std::exception& e) {
    throw std::runtime_error("configuration " + path.string() + ": " + e.what());
  }
}

}  // namespace baton::coordinator
