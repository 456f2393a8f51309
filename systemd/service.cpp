#include "systemd/service.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <csignal>
#include <exception>

namespace baton::systemd {

Service::Service(asio::io_context& io, ServiceHooks hooks)
    : hooks_(std::move(hooks)), notifier_(io.get_executor()), ticker_(io), hangup_(io, SIGHUP),
      stop_(io, SIGTERM, SIGINT) {}

void Service::start() {
  notifier_.start_watchdog();
  hangup_.async_wait([this](std::error_code error, int) {
    if (!error) on_hangup();
  });
  stop_.async_wait([this](std::error_code error, int signal) {
    if (error) return;
    notifier_.stopping("stopping: " + hooks_.status());
    hooks_.stop(signal);
  });
  tick();
}

void Service::finish() {
  ticker_.cancel();
  hangup_.cancel();
  stop_.cancel();
}

void Service::tick() {
  if (!notifier_.is_ready() && hooks_.ready()) notifier_.ready(hooks_.status());
  if (notifier_.is_ready()) notifier_.status(hooks_.status());
  ticker_.expires_after(std::chrono::milliseconds(200));
  ticker_.async_wait([this](std::error_code error) {
    if (!error) tick();
  });
}

void Service::on_hangup() {
  notifier_.reloading();
  try {
    spdlog::info("SIGHUP: {}", hooks_.reload());
  } catch (const std::exception& e) {
    spdlog::error("SIGHUP: keeping the running configuration: {}", e.what());
  }
  notifier_.reloaded(hooks_.status());
  hangup_.async_wait([this](std::error_code error, int) {
    if (!error) on_hangup();
  });
}

}  // namespace baton::systemd
