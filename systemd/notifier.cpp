#include "systemd/notifier.h"

#include <systemd/sd-daemon.h>

#include <cstdlib>

namespace baton::systemd {

Notifier::Notifier(asio::any_io_executor executor) : timer_(std::move(executor)) {
  const char* socket = std::getenv("NOTIFY_SOCKET");
  enabled_ = socket != nullptr && *socket != '\0';
  std::uint64_t usec = 0;
  // > 0 only when WATCHDOG_USEC is set (and WATCHDOG_PID, if set, is ours).
  if (sd_watchdog_enabled(0, &usec) > 0) watchdog_ = std::chrono::microseconds(usec);
}

void Notifier::send(const std::string& state) {
  if (enabled_) sd_notify(0, state.c_str());
}

void Notifier::ready(const std::string& status) {
  if (ready_) return;
  ready_ = true;
  last_status_ = status;
  send("READY=1\nSTATUS=" + status);
}

void Notifier::status(const std::string& status) {
  if (status == last_status_) return;
  last_status_ = status;
  send("STATUS=" + status);
}

void Notifier::reloading() { send("RELOADING=1\nSTATUS=reloading the configuration"); }

void Notifier::reloaded(const std::string& status) {
  last_status_ = status;
  send("READY=1\nSTATUS=" + status);
}

void Notifier::stopping(const std::string& status) {
  last_status_ = status;
  send("STOPPING=1\nSTATUS=" + status);
}

void Notifier::start_watchdog() {
  if (!enabled_ || watchdog_.count() == 0) return;
  ping();
}

void Notifier::ping() {
  send("WATCHDOG=1");
  timer_.expires_after(ping_interval());
  timer_.async_wait([this](std::error_code error) {
    if (!error) ping();
  });
}

}  // namespace baton::systemd
