// What both daemons do before they read their configuration (agent/main.cpp,
// coordinator/daemon/main.cpp): the options they share, the log, libprotobuf's own
// messages routed into it, and the open-file limit raised.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace baton::systemd {

struct DaemonOptions {
  std::string config_path;
  bool verbose = false;
};

// Adds -c/--config (required), -v/--verbose and --version to `app`.
void add_daemon_options(CLI::App& app, const std::string& program, DaemonOptions& options);

// Parses the command line (cli::parse_command_line's conventions); on nullopt the process
// goes on with its log set up (systemd/logging.h), libprotobuf's messages at debug level
// (refused garbage from the network must not make it write to stderr on its own) and the
// open-file limit raised as far as the hard limit allows (systemd's units set
// LimitNOFILE=), before any listener sizes its pending-connection caps from it, and
// SIGPIPE ignored (a write to a peer that has gone fails instead of ending the daemon).
std::optional<int> start_daemon(CLI::App& app, const std::string& program, const DaemonOptions& options, int argc,
                                char** argv);

}  // namespace baton::systemd
