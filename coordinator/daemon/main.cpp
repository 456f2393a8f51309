// baton-coordinator: the daemon. Plans jobs, drives the agents step by step, journals
// everything, and serves batonctl's API (docs/runtime.md). Under systemd it speaks the
// notify protocol (docs/systemd.md).
#include "admission/descriptors.h"
#include "cli/command_line.h"
#include "coordinator/daemon/agent_registry.h"
#include "coordinator/daemon/api.h"
#include "coordinator/daemon/config.h"
#include "coordinator/daemon/driver.h"
#include "coordinator/journal/journal.h"
#include "systemd/logging.h"
#include "systemd/service.h"

#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>

int main(int argc, char** argv) {
  CLI::App app{"baton-coordinator: plans redistributions and drives the agents"};
  std::string config_path, ready_file;
  bool verbose = false;
  app.add_option("-c,--config", config_path, "configuration file (TOML)")->required();
  app.add_option("--ready-file", ready_file, "write {\"api\": ..., \"agents\": ...} here once listening");
  app.add_flag("-v,--verbose", verbose, "debug detail in the log (overrides log_level)");
  baton::cli::add_version_flag(app, "baton-coordinator");
  if (const auto status = baton::cli::parse_command_line(app, "baton-coordinator", argc, argv, std::cout, std::cerr)) {
    return *status;
  }
  baton::systemd::setup_logging("baton-coordinator", verbose);
  // Refused garbage from the network must not make libprotobuf write to stderr on its own.
  google::protobuf::SetLogHandler([](google::protobuf::LogLevel, const char*, int, const std::string& message) {
    spdlog::debug("protobuf: {}", message);
  });

  // Every connection costs a descriptor: take all the hard limit allows (systemd's units
  // set LimitNOFILE=), before any listener sizes its pending-connection caps from it.
  const baton::admission::DescriptorLimit descriptors = baton::admission::raise_descriptor_limit();
  if (!descriptors.error.empty()) spdlog::warn("open-file limit not raised: {}", descriptors.error);
  spdlog::info("open-file limit {} (hard limit {})", descriptors.soft, descriptors.hard);

  try {
    const auto config = baton::coordinator::load_coordinator_config(config_path);
    if (!verbose) baton::systemd::set_log_level(config.log_level);
    std::filesystem::create_directories(config.state_dir);
    baton::journal::Journal journal(config.state_dir / "journal.sqlite");
    asio::io_context io;
    const baton::log::Sink log = baton::systemd::spdlog_sink("");
    baton::coordinator::AgentRegistry agents(io, {"coordinator", config.id, config.secret}, config.heartbeat, log);
    baton::coordinator::SteadyClock clock;
    baton::coordinator::DriverOptions options;
    options.collective_startup = config.collective_startup;
    baton::coordinator::Driver driver(io, agents, journal, clock, options, log);
    agents.set_handler(
        [&](const std::string& node, const baton::protocol::Envelope& m) { driver.on_message(node, m); });
    agents.listen(config.agent_address);
    baton::coordinator::Api api(io, driver, agents, config.api_token);
    api.start(config.api_address);
    driver.start();
    spdlog::info("coordinator {} listening for agents at {}, API at http://{}, journal {}", config.id, agents.address(),
                 api.address(), journal.path().string());
    if (!ready_file.empty()) {
      std::ofstream(ready_file) << "{\"api\": \"" << api.address() << "\", \"agents\": \"" << agents.address()
                                << "\"}\n";
    }

    // systemd: READY once both listeners are up and the signals are handled (a reload right
    // after READY must not meet SIGHUP's default action); STATUS as the driver's changes.
    // SIGHUP re-reads the configuration: log_level and the API token apply at once.
    baton::systemd::Service service(
        io,
        {.status = [&] { return driver.status(); },
         .ready = [] { return true; },
         .reload =
             [&] {
               const auto fresh = baton::coordinator::load_coordinator_config(config_path);
               if (!verbose) baton::systemd::set_log_level(fresh.log_level);
               api.set_token(fresh.api_token);
               return std::string("configuration re-read: log_level ") + (verbose ? "debug (-v)" : fresh.log_level) +
                      ", API token " + (fresh.api_token.empty() ? "none" : "set") +
                      "; other settings take effect at the next restart";
             },
         .stop =
             [&](int signal) {
               spdlog::info("signal {}: stopping (a running job resumes from the journal at the next start)", signal);
               api.stop();
               agents.stop();
               io.stop();
             }});
    service.start();
    io.run();
    return 0;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
}
