#include "agent/config.h"

#include "config/toml_field.h"
#include "error/error.h"
#include "protocol/handshake.h"

#include <algorithm>
#include <string>
#include <vector>

namespace baton::agent {
namespace {

// What Linux names a congestion control with (TCP_CA_NAME_MAX is 16 with the NUL): "cubic",
// "bbr", "dctcp", "htcp". Empty keeps the system's.
bool valid_congestion_name(const std::string& name) {
  return name.size() < 16 && std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
         });
}

}  // namespace

AgentConfig load_agent_config(const std::filesystem::path& path) {
  try {
    const toml::table file = baton::config::parse_file(path);
    baton::config::check_known_keys(
        file, {"node_id", "coordinator", "secret_file", "data_root", "data_address", "rate", "transport",
               "fabric_provider", "buffer_count", "buffer_size", "flow_silence_seconds", "tcp_congestion", "log_level",
               "metrics_address", "max_jobs"});
    const std::filesystem::path base = path.parent_path();
    const auto relative = [&](const std::string& p) {
      return std::filesystem::path(p).is_absolute() ? p : (base / p).string();
    };
    AgentConfig config;
    config.node_id = baton::config::required_field<std::string>(file, "node_id");
    if (config.node_id.empty() || config.node_id.size() > 256)
      throw error::InvalidInput("node_id must have 1 to 256 bytes");
    if (const toml::node* coordinator = file.get("coordinator"); coordinator != nullptr && coordinator->is_array()) {
      const auto all = baton::config::field<std::vector<std::string>>(*coordinator, "coordinator");
      if (all.empty()) throw error::InvalidInput("coordinator is an empty list");
      config.coordinator = all.front();
      config.other_coordinators.assign(all.begin() + 1, all.end());
    } else {
      config.coordinator = baton::config::required_field<std::string>(file, "coordinator");
    }
    config.secret = protocol::load_secret(relative(baton::config::required_field<std::string>(file, "secret_file")));
    config.data_root = relative(baton::config::required_field<std::string>(file, "data_root"));
    config.data_address = baton::config::field_or<std::string>(file, "data_address", config.data_address);
    config.rate = baton::config::field_or<double>(file, "rate", 0.0);
    if (!(config.rate >= 0)) throw error::InvalidInput("rate must be >= 0 bytes/s");
    config.transport.kind = baton::config::field_or<std::string>(file, "transport", "tcp");
    if (config.transport.kind != "tcp" && config.transport.kind != "fabric") {
      throw error::InvalidInput("transport must be \"tcp\" or \"fabric\", not \"" + config.transport.kind + "\"");
    }
    config.transport.provider =
        baton::config::field_or<std::string>(file, "fabric_provider", config.transport.provider);
    const auto count = baton::config::field_or<std::int64_t>(file, "buffer_count", 64);
    const auto size = baton::config::field_or<std::int64_t>(file, "buffer_size", 1 << 20);
    if (count < 1 || count > 65536) throw error::InvalidInput("buffer_count must be within [1, 65536]");
    if (size < 4096 || size > (1 << 30)) throw error::InvalidInput("buffer_size must be within [4096, 2^30]");
    config.transport.context.pool = {.buffer_count = static_cast<std::size_t>(count),
                                     .buffer_size = static_cast<std::size_t>(size)};
    const auto silence = baton::config::field_or<double>(file, "flow_silence_seconds", 30.0);
    if (!(silence >= 1 && silence <= 3600)) throw error::InvalidInput("flow_silence_seconds must be within [1, 3600]");
    config.transport.context.frame_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(silence * 1000));
    config.transport.context.tcp_congestion =
        baton::config::field_or<std::string>(file, "tcp_congestion", config.transport.context.tcp_congestion);
    if (!valid_congestion_name(config.transport.context.tcp_congestion)) {
      throw error::InvalidInput(
          "tcp_congestion must be empty (the system's) or a congestion control's name of 1 to 15 "
          "lower-case letters, digits or '_', not \"" +
          config.transport.context.tcp_congestion + "\"");
    }
    const auto max_jobs = baton::config::field_or<std::int64_t>(file, "max_jobs", 16);
    if (max_jobs < 1 || max_jobs > 1024) throw error::InvalidInput("max_jobs must be within [1, 1024]");
    config.max_jobs = static_cast<std::size_t>(max_jobs);
    config.metrics_address = baton::config::field_or<std::string>(file, "metrics_address", "");
    config.log_level = baton::config::log_level_field(file);
    return config;
  } catch (const std::exception& e) {
    throw error::InvalidInput("configuration " + path.string() + ": " + e.what());
  }
}

}  // namespace baton::agent
