// The coordinator's HTTP API for batonctl (docs/runtime.md, "The coordinator's API"),
// served by cpp-httplib on its own threads; every request reads the driver's state on
// the io_context's thread (posted, then awaited), so the driver needs no locks, and large
// answers are rendered back on the HTTP thread.
#pragma once

#include "coordinator/daemon/agent_registry.h"
#include "coordinator/daemon/driver.h"
#include "coordinator/daemon/job_end_wait.h"
#include "coordinator/report/status_page.h"
#include "http/server_thread.h"

#include <asio/io_context.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace httplib {
class Server;
struct Response;
}  // namespace httplib

namespace baton::coordinator {

class Api {
 public:
  // `token` empty: no authorization required.
  Api(asio::io_context& io, Driver& driver, const AgentRegistry& registry, std::string token);
  ~Api();

  // Binds "host:port" (port 0: any) and starts serving. Throws an error::Error naming it.
  void start(const std::string& address);
  void stop();
  std::string address() const { return serving_.address(); }
  // Replaces the bearer token ("" : none), e.g. on SIGHUP; safe while serving.
  void set_token(std::string token);

 private:
  // On the HTTP thread: asks a job's nodes about the files it reads and writes (Driver::
  // ask_objects), waits for the answers at most DriverOptions::object_query_timeout, keeps
  // the files' identities in the spec and, for a collective, resolves the job's ranges.
  // RequestError(bad_request) naming a collective's silent nodes, or the node, file and
  // sizes of a range that does not fit.
  void resolve_objects(JobSpec& spec);
  // On the io thread: what the status page shows ("/" the newest job, else job `id`); an
  // unknown job is said on the page, with its status in `response`.
  report::StatusPage status_page_state(httplib::Response& response, const std::string* id) const;
  // On the HTTP thread: the job as `look` gives it (on the io thread: Driver::job_report or
  // job_progress) once it has ended, or as it is after `wait`.
  report::JobReport job_after(std::uint64_t id, std::chrono::milliseconds wait,
                              const std::function<report::JobReport(std::uint64_t)>& look);

  asio::io_context& io_;
  Driver& driver_;
  const AgentRegistry& registry_;  // for the peers it refused
  std::mutex token_mutex_;         // the server's threads read token_
  std::string token_;
  JobEndSignal job_ends_;  // the driver's ends, for GET /v1/jobs/{id}?wait=
  std::unique_ptr<httplib::Server> server_;
  http::ServerThread serving_;
};

}  // namespace baton::coordinator
