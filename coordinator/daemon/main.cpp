// baton-coordinator: the daemon. Plans jobs, drives the agents step by step, journals
// everything, and serves batonctl's API (docs/runtime.md). Under systemd it speaks the
// notify protocol (docs/systemd.md).
#include "coordinator/daemon/agent_registry.h"
#include "coordinator/daemon/api.h"
#include "coordinator/daemon/config.h"
#include "coordinator/daemon/driver.h"
#include "coordinator/journal/journal.h"
#include "http/server.h"
#include "systemd/daemon_process.h"
#include "systemd/logging.h"
#include "systemd/service.h"

#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>

int main(int argc, char** argv) {
  CLI::App app{"baton-coordinator: plans redistributions and drives the agents"};
  baton::systemd::DaemonOptions daemon;
  baton::systemd::add_daemon_options(app, "baton-coordinator", daemon);
  std::string ready_file;
  app.add_option("--ready-file", ready_file, "write {\"api\": ..., \"agents\": ...} here once listening");
  if (const auto status = baton::systemd::start_daemon(app, "baton-coordinator", daemon, argc, argv)) return *status;
  baton::http::return_large_blocks_to_the_system();  // its API takes bodies of up to 64 MiB

  try {
    const auto config = baton::coordinator::load_coordinator_config(daemon.config_path);
    if (!daemon.verbose) baton::systemd::set_log_level(config.log_level);
    std::filesystem::create_directories(config.state_dir);
    baton::journal::Journal journal(config.state_dir / "journal.sqlite");
    asio::io_context io;
    const baton::log::Sink log = baton::systemd::spdlog_sink("");
    baton::coordinator::AgentRegistry agents(io, {"coordinator", config.id, config.secret}, config.heartbeat, log);
    baton::coordinator::SteadyClock clock;
    baton::coordinator::DriverOptions options;
    options.drift = config.drift;
    options.replan_on_drift = config.replan_on_drift;
    options.collective_startup = config.collective_startup;
    options.max_queued_jobs = config.max_queued_jobs;
    options.max_queued_calibrations = config.max_queued_calibrations;
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
               const auto fresh = baton::coordinator::load_coordinator_config(daemon.config_path);
               if (!daemon.verbose) baton::systemd::set_log_level(fresh.log_level);
               api.set_token(fresh.api_token);
               return std::string("configuration re-read: log_level ") +
                      (daemon.verbose ? "debug (-v)" : fresh.log_level) + ", API token " +
                      (fresh.api_token.empty() ? "none" : "set") + "; other settings take effect at the next restart";
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
