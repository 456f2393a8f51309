// baton-agent: the node daemon. Registers with the coordinator and runs the steps of the
// jobs it is given, moving files under its data root (docs/runtime.md).
#include "agent/agent.h"
#include "agent/config.h"
#include "agent/data_root.h"
#include "agent/file_storage.h"
#include "agent/plan_check.h"

#include <CLI/CLI.hpp>
#include <asio/signal_set.hpp>
#include <asio/steady_timer.hpp>
#include <google/protobuf/stubs/logging.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

int main(int argc, char** argv) {
  CLI::App app{"baton-agent: moves this node's part of Baton jobs"};
  std::string config_path;
  bool verbose = false;
  app.add_option("-c,--config", config_path, "configuration file (TOML)")->required();
  app.add_flag("-v,--verbose", verbose, "debug detail in the log");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_default_logger(spdlog::stderr_color_mt("baton"));  // logs on stderr, results on stdout
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::info);
  google::protobuf::SetLogHandler([](google::protobuf::LogLevel, const char*, int, const std::string& message) {
    spdlog::debug("protobuf: {}", message);
  });

  try {
    const auto config = baton::agent::load_agent_config(config_path);
    const baton::agent::DataRoot root(config.data_root);
    asio::io_context io;
    auto opened = baton::transport::open_context(io.get_executor(), config.transport);
    if (!opened.context) throw std::runtime_error("transport: " + opened.detail);
    baton::transport::Context& context = *opened.context;
    baton::agent::DataPlane data(context, config.data_address);
    baton::agent::FileStorage storage(root);
    baton::agent::AgentOptions options{.node_id = config.node_id, .coordinator = config.coordinator,
                                       .secret = config.secret, .rate = config.rate,
                                       .transports = {context.name()}, .log = [&](std::string_view line) {
                                         spdlog::info("{}: {}", config.node_id, line);
                                       }};
    baton::agent::Agent agent(context, data, storage, options,
                              [&](const baton::protocol::Plan& plan) { return baton::agent::check_plan(plan, root); });
    data.start();
    agent.start();
    spdlog::info("{}: agent up, data at {} ({}), root {}, coordinator {}", config.node_id, data.address(), context.name(),
                 config.data_root.string(), config.coordinator);

    asio::signal_set signals(io, SIGTERM, SIGINT);
    signals.async_wait([&](std::error_code, int signal) {
      spdlog::info("{}: signal {}: finishing the current step, then stopping", config.node_id, signal);
      agent.stop();
      data.stop();
    });
    // Run until the agent has stopped and every coroutine has ended: pending flows hold
    // pool buffers, so the transport context must not go before them. A last timer bounds
    // the wait for stragglers.
    asio::steady_timer poll(io);
    std::function<void(std::error_code)> check = [&](std::error_code) {
      if (!agent.stopped()) {
        poll.expires_after(std::chrono::milliseconds(100));
        poll.async_wait(check);
        return;
      }
      signals.cancel();
      poll.expires_after(std::chrono::seconds(1));
      poll.async_wait([&](std::error_code ec) {
        if (!ec) io.stop();
      });
    };
    check({});
    io.run();
    spdlog::info("{}: stopped", config.node_id);
    return 0;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
}
