#include "systemd/daemon_process.h"

#include "admission/descriptors.h"
#include "cli/command_line.h"
#include "systemd/logging.h"

#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <iostream>

namespace baton::systemd {

void add_daemon_options(CLI::App& app, const std::string& program, DaemonOptions& options) {
  app.add_option("-c,--config", options.config_path, "configuration file (TOML)")->required();
  app.add_flag("-v,--verbose", options.verbose, "debug detail in the log (overrides log_level)");
  cli::add_version_flag(app, program);
}

std::optional<int> start_daemon(CLI::App& app, const std::string& program, const DaemonOptions& options, int argc,
                                char** argv) {
  if (const auto status = cli::parse_command_line(app, program, argc, argv, std::cout, std::cerr)) return status;
  setup_logging(program, options.verbose);
  // A write to a socket whose peer has gone must fail with EPIPE, not end the daemon: Asio
  // sends with MSG_NOSIGNAL, but cpp-httplib's sends (the API, /metrics, the etcd client)
  // do not, and the etcd client's abandon() shuts down sockets whose requests may not be
  // written yet. Every path checks the write's result already.
  if (std::signal(SIGPIPE, SIG_IGN) == SIG_ERR) spdlog::warn("SIGPIPE not ignored: a broken pipe may end {}", program);
  google::protobuf::SetLogHandler([](google::protobuf::LogLevel, const char*, int, const std::string& message) {
    spdlog::debug("protobuf: {}", message);
  });
  const admission::DescriptorLimit descriptors = admission::raise_descriptor_limit();
  if (descriptors.not_raised) spdlog::warn("open-file limit not raised: {}", descriptors.not_raised->reason);
  spdlog::info("open-file limit {} (hard limit {})", descriptors.soft, descriptors.hard);
  return std::nullopt;
}

}  // namespace baton::systemd
