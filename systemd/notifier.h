// The daemons' side of systemd's notify protocol (sd_notify(3), Type=notify units;
// docs/systemd.md): READY=1 once the daemon serves, STATUS= lines saying what it does,
// WATCHDOG=1 from the event loop at half the unit's WatchdogSec, RELOADING=1 and
// STOPPING=1. Outside systemd (no NOTIFY_SOCKET) every call does nothing.
//
// Threading: the watchdog runs on the executor given; call the rest from that thread too.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/steady_timer.hpp>

#include <chrono>
#include <string>

namespace baton::systemd {

class Notifier {
 public:
  explicit Notifier(asio::any_io_executor executor);

  // Whether a service manager listens (NOTIFY_SOCKET is set).
  bool enabled() const noexcept { return enabled_; }
  // The watchdog interval systemd asked for (WATCHDOG_USEC), zero when none.
  std::chrono::microseconds watchdog_interval() const noexcept { return watchdog_; }
  // How often start_watchdog pings: half the interval, as sd_watchdog_enabled(3) advises.
  std::chrono::microseconds ping_interval() const noexcept { return watchdog_ / 2; }

  // READY=1 with a first STATUS=; later calls do nothing.
  void ready(const std::string& status);
  bool is_ready() const noexcept { return ready_; }
  // STATUS=, sent only when it differs from the last one.
  void status(const std::string& status);
  // RELOADING=1 (a SIGHUP being applied) and, when done, READY=1 again.
  void reloading();
  void reloaded(const std::string& status);
  // STOPPING=1 with a STATUS= saying what the stop waits for.
  void stopping(const std::string& status);
  // Starts sending WATCHDOG=1 every half interval from the executor: a stuck event loop
  // stops the pings and systemd restarts the daemon. Does nothing without WatchdogSec.
  void start_watchdog();

 private:
  void send(const std::string& state);
  void ping();

  bool enabled_ = false;
  bool ready_ = false;
  std::chrono::microseconds watchdog_{0};
  std::string last_status_;
  asio::steady_timer timer_;
};

}  // namespace baton::systemd
