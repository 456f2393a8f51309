// A daemon's life under a service manager, shared by baton-coordinator and baton-agent:
// READY=1 once the daemon says it is ready and STATUS= lines as its status changes
// (polled every 200 ms), the watchdog, SIGHUP to re-read the configuration, SIGTERM or
// SIGINT to stop (docs/systemd.md). Outside systemd the notifications do nothing and the
// signals still work.
//
// Threading: everything runs on the io_context given; the hooks are called from it.
#pragma once

#include <asio/io_context.hpp>
#include <asio/signal_set.hpp>
#include <asio/steady_timer.hpp>

#include <functional>
#include <string>

#include "systemd/notifier.h"

namespace baton::systemd {

struct ServiceHooks {
  // The daemon's one-line status (STATUS=).
  std::function<std::string()> status;
  // Whether it serves yet (READY=1 is sent the first time this holds).
  std::function<bool()> ready;
  // Re-reads the configuration and applies what it can; returns the line to log. Throws
  // std::exception to keep the running configuration (the error is logged).
  std::function<std::string()> reload;
  // SIGTERM or SIGINT arrived: begin stopping.
  std::function<void(int signal)> stop;
};

class Service {
 public:
  Service(asio::io_context& io, ServiceHooks hooks);

  // Starts the watchdog, the status ticker and the signal handlers.
  void start();
  // Cancels the ticker and the handlers, so that the io_context can run out of work.
  void finish();

 private:
  void tick();
  void on_hangup();

  ServiceHooks hooks_;
  Notifier notifier_;
  asio::steady_timer ticker_;
  asio::signal_set hangup_;
  asio::signal_set stop_;
};

}  // namespace baton::systemd
