// baton-agent: the node daemon. Registers with the coordinator and runs the steps of the
// jobs it is given, moving files under its data root (docs/runtime.md). Under systemd it
// speaks the notify protocol (docs/systemd.md).
#include "agent/agent.h"
#include "agent/config.h"
#include "agent/data_root.h"
#include "agent/file_scratch.h"
#include "agent/file_staging.h"
#include "agent/file_storage.h"
#include "agent/plan_check.h"
#include "agent/probe_storage.h"
#include "error/error.h"
#include "metrics/http_server.h"
#include "systemd/daemon_process.h"
#include "systemd/logging.h"
#include "systemd/service.h"

#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>
#include <asio/co_spawn.hpp>

#include <iostream>

namespace {

asio::awaitable<void> shut_down(baton::agent::Agent& agent, baton::agent::DataPlane& data) {
  co_await agent.stop();
  co_await data.stop();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"baton-agent: moves this node's part of Baton jobs"};
  baton::systemd::DaemonOptions daemon;
  baton::systemd::add_daemon_options(app, "baton-agent", daemon);
  if (const auto status = baton::systemd::start_daemon(app, "baton-agent", daemon, argc, argv)) return *status;

  try {
    const auto config = baton::agent::load_agent_config(daemon.config_path);
    if (!daemon.verbose) baton::systemd::set_log_level(config.log_level);
    const baton::agent::DataRoot root(config.data_root);
    asio::io_context io;
    auto opened = baton::transport::open_context(io.get_executor(), config.transport);
    if (!opened.value) throw baton::error::SystemError("transport: " + opened.detail);
    baton::transport::Context& context = *opened.value;
    baton::agent::DataPlane data(context, config.data_address, {config.node_id, config.secret});
    baton::agent::FileStorage files(root);
    baton::agent::ProbeStorage storage(files);  // and calibration's probe objects
    baton::agent::FileStaging staging(root);
    baton::agent::FileScratch scratch(root, config.node_id);  // removes an earlier process's leftovers
    baton::agent::AgentOptions options{.node_id = config.node_id,
                                       .coordinator = config.coordinator,
                                       .secret = config.secret,
                                       .rate = config.rate,
                                       .transports = {context.name()},
                                       .log = baton::systemd::spdlog_sink(config.node_id)};
    options.storage_id = baton::agent::storage_id(root);
    options.other_coordinators = config.other_coordinators;
    options.max_jobs = config.max_jobs;
    options.staging = &staging;
    options.scratch = &scratch;
    baton::agent::Agent agent(context, data, storage, options, [&](const baton::protocol::Plan& plan) {
      return baton::agent::check_plan(plan, baton::agent::with_probe_objects(baton::agent::data_root_objects(root)));
    });
    data.log_to(baton::systemd::spdlog_sink(config.node_id));
    data.start();
    agent.start();
    baton::metrics::HttpServer metrics([&] { return agent.metrics(); });
    if (!config.metrics_address.empty()) {
      metrics.start(config.metrics_address);
      spdlog::info("{}: metrics at http://{}/metrics", config.node_id, metrics.address());
    }
    spdlog::info("{}: agent up, data at {} ({}), root {}, coordinator {}", config.node_id, data.address(),
                 context.name(), config.data_root.string(), config.coordinator);

    // systemd: READY once listening and registered; SIGHUP re-reads the configuration (only
    // log_level applies without a restart). SIGTERM: the agent finishes its step and reports
    // it, then the data plane ends its connections; the io_context runs until both are done
    // (pending flows hold pool buffers, so the transport context must not go before them).
    // The session with the coordinator ends once its last messages are written
    // (Channel::finish), so nothing is left to send when shut_down completes.
    baton::systemd::Service service(io, {.status = [&] { return agent.status(); },
                                         .ready = [&] { return agent.registered(); },
                                         .reload =
                                             [&] {
                                               const auto fresh = baton::agent::load_agent_config(daemon.config_path);
                                               if (!daemon.verbose) baton::systemd::set_log_level(fresh.log_level);
                                               return config.node_id + ": configuration re-read, log_level " +
                                                      (daemon.verbose ? "debug (-v)" : fresh.log_level) +
                                                      "; other settings take effect at the next restart";
                                             },
                                         .stop =
                                             [&](int signal) {
                                               spdlog::info("{}: signal {}: finishing the current step, then stopping",
                                                            config.node_id, signal);
                                               asio::co_spawn(io, shut_down(agent, data), [&](std::exception_ptr) {
                                                 service.finish();
                                                 io.stop();
                                               });
                                             }});
    service.start();
    io.run();
    spdlog::info("{}: stopped", config.node_id);
    return 0;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
}
