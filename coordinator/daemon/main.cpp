// baton-coordinator: the daemon. Plans jobs, drives the agents step by step, journals
// everything, and serves batonctl's API (docs/runtime.md). Under systemd it speaks the
// notify protocol (docs/systemd.md).
#include "coordinator/daemon/agent_registry.h"
#include "coordinator/daemon/api.h"
#include "coordinator/daemon/config.h"
#include "coordinator/daemon/driver.h"
#include "coordinator/daemon/measured_store.h"
#include "coordinator/daemon/standby_api.h"
#include "coordinator/daemon/standby_view.h"
#include "coordinator/journal/etcd_election.h"
#include "coordinator/journal/etcd_journal.h"
#include "coordinator/journal/journal.h"
#include "http/server.h"
#include "systemd/daemon_process.h"
#include "systemd/logging.h"
#include "systemd/notifier.h"
#include "systemd/service.h"

#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>
#include <asio/executor_work_guard.hpp>
#include <asio/signal_set.hpp>

#include <atomic>
#include <csignal>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

namespace {

// Campaigns on a thread of its own while `io` runs a notifier: under systemd a standby is a
// started service (READY=1, a STATUS saying it stands by, the watchdog's pings) however long
// it waits, not one that never finishes starting. SIGHUP calls `reload` (the standby API's
// token), as it re-reads the configuration of a leader.
std::int64_t campaign(asio::io_context& io, baton::journal::EtcdElection& election, const std::string& key,
                      const std::function<void()>& reload) {
  std::int64_t epoch = 0;
  std::exception_ptr failed;
  baton::systemd::Notifier standby(io.get_executor());
  standby.ready("standby: campaigning for " + key);
  standby.start_watchdog();
  asio::signal_set hangups(io, SIGHUP);
  std::function<void()> on_hangup = [&] {
    hangups.async_wait([&](const asio::error_code& error, int) {
      if (error) return;  // cancelled: the campaign ended
      reload();
      on_hangup();
    });
  };
  on_hangup();
  auto waiting = asio::make_work_guard(io);  // io.run() returns only on the campaign's stop
  std::thread campaigning([&] {
    try {
      epoch = election.campaign();
    } catch (...) {
      failed = std::current_exception();
    }
    asio::post(io, [&io] { io.stop(); });
  });
  io.run();
  campaigning.join();
  waiting.reset();
  hangups.cancel();
  io.restart();
  io.poll();     // the cancelled wait's handler, before hangups goes
  io.restart();  // poll() found no more work and stopped the context: the leader runs it again
  if (failed) std::rethrow_exception(failed);
  return epoch;
}

}  // namespace

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
    asio::io_context io;
    const baton::log::Sink log = baton::systemd::spdlog_sink("");
    // A leader that lost its lease (or cannot journal) stops serving at once and exits 3;
    // started again, it stands by (docs/ha.md).
    std::atomic<int> exit_code{0};
    std::function<void()> stop_serving = [&] { io.stop(); };
    // The leader's fenced journal, once it leads: a write in flight that etcd does not answer
    // (no quorum) must not hold the deposed leader for its timeout, past its lease.
    std::atomic<baton::journal::EtcdJournal*> fenced_journal{nullptr};
    std::atomic<bool> lost{false};  // said and acted on once (the abandoned write calls again)
    const auto lose_leadership = [&](const std::string& why) {
      if (lost.exchange(true)) return;
      spdlog::error("no longer the leader: {}; stopping (another coordinator leads; start this one again to stand by)",
                    why);
      if (auto* store = fenced_journal.load()) store->abandon("this coordinator no longer leads: " + why);
      asio::post(io, [&] {
        exit_code = 3;
        stop_serving();
      });
    };
    std::unique_ptr<baton::journal::Store> journal;
    std::unique_ptr<baton::journal::EtcdElection> election;
    if (config.etcd) {
      const baton::journal::EtcdOptions etcd{
          .endpoints = config.etcd->endpoints, .timeout = config.etcd->timeout, .security = config.etcd->security};
      const std::string key = config.etcd->prefix + "leader";
      const std::string candidate =
          nlohmann::json{{"id", config.id}, {"api", config.api_address}, {"agents", config.agent_address}}.dump();
      election =
          std::make_unique<baton::journal::EtcdElection>(etcd, key, candidate, config.etcd->leader_ttl_seconds, log);
      spdlog::info("coordinator {}: campaigning for {} on etcd (lease TTL {} s)", config.id, key,
                   config.etcd->leader_ttl_seconds);
      // While it stands by, its API answers the journal's reads and sends the rest to the
      // leader; it gives the address up to the leader's API once it leads.
      baton::coordinator::DriverMetrics standby_metrics;
      standby_metrics.leading(false);
      baton::journal::EtcdJournal shared(etcd, config.etcd->prefix);
      baton::coordinator::MeasuredStore measured(
          shared, [&](bool write, double seconds) { standby_metrics.journal_call(shared.kind(), write, seconds); });
      baton::coordinator::StandbyView view(measured, log);
      std::mutex leader_mutex;
      baton::journal::EtcdClient leader_client(etcd);
      baton::coordinator::StandbyApi standby(
          view,
          [&]() -> std::optional<std::string> {
            const std::lock_guard lock(leader_mutex);
            const auto found = leader_client.get(key);
            if (found.empty()) return std::nullopt;
            return found.front().value;
          },
          [&] { return standby_metrics.render(0, 0, 0, 0, 0, 0, 0); },
          {.id = config.id, .leader_key = key, .token = config.api_token});
      standby.start(config.api_address);
      spdlog::info(
          "coordinator {} stands by with its API at http://{}: reads from the journal, writes sent to the "
          "leader",
          config.id, standby.address());
      const std::int64_t epoch = campaign(io, *election, key, [&] {
        try {
          const auto fresh = baton::coordinator::load_coordinator_config(daemon.config_path);
          if (!daemon.verbose) baton::systemd::set_log_level(fresh.log_level);
          standby.set_token(fresh.api_token);
          spdlog::info(
              "SIGHUP: configuration re-read: API token {} (standby); other settings take effect at the next "
              "restart",
              fresh.api_token.empty() ? "none" : "set");
        } catch (const std::exception& e) {
          spdlog::error("SIGHUP: keeping the running configuration: {}", e.what());
        }
      });
      standby.stop();
      election->hold(lose_leadership);
      auto store = std::make_unique<baton::journal::EtcdJournal>(etcd, config.etcd->prefix);
      store->fence(key, epoch, lose_leadership);
      fenced_journal = store.get();
      journal = std::move(store);
      spdlog::info("coordinator {} leads at epoch {}; resuming from the journal in etcd", config.id, epoch);
    } else {
      std::filesystem::create_directories(config.state_dir);
      journal = std::make_unique<baton::journal::Journal>(config.state_dir / "journal.sqlite");
    }
    baton::coordinator::AgentRegistry agents(io, {"coordinator", config.id, config.secret}, config.heartbeat, log);
    if (election) agents.set_leader_epoch(static_cast<std::uint64_t>(election->epoch()));
    baton::coordinator::SteadyClock clock;
    baton::coordinator::DriverOptions options;
    options.drift = config.drift;
    options.replan_on_drift = config.replan_on_drift;
    options.self_paced_steps = config.self_paced_steps;
    options.min_step_timeout = config.min_step_timeout;
    options.collective_startup = config.collective_startup;
    options.max_queued_jobs = config.max_queued_jobs;
    options.max_running_jobs = config.max_running_jobs;
    options.max_jobs_per_node = config.max_jobs_per_node;
    options.max_queued_calibrations = config.max_queued_calibrations;
    if (election) {
      options.leader_epoch = static_cast<std::uint64_t>(election->epoch());
      options.lease_lapsed = [&election] { return election->lapsed(); };
    }
    baton::coordinator::Driver driver(io, agents, *journal, clock, options, log);
    agents.set_handler(
        [&](const std::string& node, const baton::protocol::Envelope& m) { driver.on_message(node, m); });
    agents.set_on_dead([&](const std::string&) { driver.on_agent_dead(); });
    agents.listen(config.agent_address);
    baton::coordinator::Api api(io, driver, agents, config.api_token);
    api.start(config.api_address);
    stop_serving = [&] {
      api.stop();
      agents.stop();
      // A standby leads at once, not a TTL later. Not after a loss: the lease is gone, or
      // etcd does not answer, and the revocation would wait out its timeout.
      if (election && exit_code != 3) election->resign();
      io.stop();
    };
    driver.start();
    // systemd: READY once both listeners are up and the signals are handled (a reload right
    // after READY must not meet SIGHUP's default action); STATUS as the driver's changes.
    // SIGHUP re-reads the configuration: log_level and the API token apply at once.
    baton::systemd::Service service(
        io, {.status = [&] { return driver.status(); },
             .ready = [] { return true; },
             .reload =
                 [&] {
                   const auto fresh = baton::coordinator::load_coordinator_config(daemon.config_path);
                   if (!daemon.verbose) baton::systemd::set_log_level(fresh.log_level);
                   api.set_token(fresh.api_token);
                   return std::string("configuration re-read: log_level ") +
                          (daemon.verbose ? "debug (-v)" : fresh.log_level) + ", API token " +
                          (fresh.api_token.empty() ? "none" : "set") +
                          "; other settings take effect at the next restart";
                 },
             .stop =
                 [&](int signal) {
                   spdlog::info("signal {}: stopping (a running job resumes from the journal at the next start{})",
                                signal, election ? ", or on the standby that leads next" : "");
                   stop_serving();
                 }});
    // Said once SIGTERM is handled (the service's signal set, made above, queues it for
    // start), so whoever stops the coordinator on reading this line or the ready file gets
    // its orderly stop; and before READY, which start sends, so the file is there by then.
    spdlog::info("coordinator {} listening for agents at {}, API at http://{}, journal {}", config.id, agents.address(),
                 api.address(), journal->where());
    if (!ready_file.empty()) {
      std::ofstream(ready_file) << "{\"api\": \"" << api.address() << "\", \"agents\": \"" << agents.address()
                                << "\"}\n";
    }
    service.start();
    io.run();
    return exit_code;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
}
