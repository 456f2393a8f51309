// baton-coordinator: the daemon. Plans jobs, drives the agents step by step, journals
// everything, and serves batonctl's API (docs/runtime.md).
#include "coordinator/daemon/agent_registry.h"
#include "coordinator/daemon/api.h"
#include "coordinator/daemon/config.h"
#include "coordinator/daemon/driver.h"
#include "coordinator/journal/journal.h"

#include <CLI/CLI.hpp>
#include <asio/signal_set.hpp>
#include <google/protobuf/stubs/logging.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <fstream>

int main(int argc, char** argv) {
  CLI::App app{"baton-coordinator: plans redistributions and drives the agents"};
  std::string config_path, ready_file;
  bool verbose = false;
  app.add_option("-c,--config", config_path, "configuration file (TOML)")->required();
  app.add_option("--ready-file", ready_file, "write {\"api\": ..., \"agents\": ...} here once listening");
  app.add_flag("-v,--verbose", verbose, "debug detail in the log");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_default_logger(spdlog::stderr_color_mt("baton"));  // logs on stderr, results on stdout
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::info);
  // Refused garbage from the network must not make libprotobuf write to stderr on its own.
  google::protobuf::SetLogHandler([](google::protobuf::LogLevel, const char*, int, const std::string& message) {
    spdlog::debug("protobuf: {}", message);
  });

  try {
    const auto config = baton::coordinator::load_coordinator_config(config_path);
    std::filesystem::create_directories(config.state_dir);
    baton::coordinator::Journal journal(config.state_dir / "journal.sqlite");
    asio::io_context io;
    const auto log = [](const std::string& line) { spdlog::info("{}", line); };
    baton::coordinator::AgentRegistry agents(io, {"coordinator", config.id, config.secret}, config.heartbeat, log);
    baton::coordinator::Driver driver(io, agents, journal, {}, log);
    agents.set_handler([&](const std::string& node, const baton::protocol::Envelope& m) { driver.on_message(node, m); });
    agents.listen(config.agent_address);
    baton::coordinator::Api api(io, driver, config.api_token);
    api.start(config.api_address);
    driver.start();
    spdlog::info("coordinator {} listening for agents at {}, API at http://{}, journal {}", config.id, agents.address(),
                 api.address(), journal.path().string());
    if (!ready_file.empty()) {
      std::ofstream(ready_file) << "{\"api\": \"" << api.address() << "\", \"agents\": \"" << agents.address() << "\"}\n";
    }
    asio::signal_set signals(io, SIGTERM, SIGINT);
    signals.async_wait([&](std::error_code, int signal) {
      spdlog::info("signal {}: stopping", signal);
      api.stop();
      agents.stop();
      io.stop();
    });
    io.run();
    return 0;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
}
