// The coordinator's HTTP/JSON API as a coupling uses it (docs/runtime.md, "The
// coordinator's API"): submit a job, read one. A small client of its own, so that the
// shared library of the bindings does not carry batonctl's.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace httplib {
class Client;
}

namespace baton::coupling {

class CoordinatorApi {
 public:
  // address: "host:port" (an "http://" in front is accepted); token: sent as a bearer
  // token unless empty. Throws Error(invalid_argument) for an address without a port.
  CoordinatorApi(const std::string& address, std::string token);
  ~CoordinatorApi();
  CoordinatorApi(const CoordinatorApi&) = delete;
  CoordinatorApi& operator=(const CoordinatorApi&) = delete;

  // POST /v1/jobs; the job's id. Throws Error(unreachable) when the coordinator does not
  // answer, Error(job_failed) naming its reason when it refuses the job.
  std::string submit(const std::string& job_json) const;
  // GET /v1/jobs/{id}. Throws Error(unreachable), or Error(unknown_name) for no such job.
  nlohmann::json job(const std::string& id) const;
  // GET /v1/jobs/{id}?wait=...: the job once it has ended, or as it is after `wait` (at
  // most 5 s; docs/runtime.md, "Waiting for a job"). On one kept-alive connection, so a
  // handoff's wait costs no new connection per look. Throws as job().
  nlohmann::json wait_job(const std::string& id, std::chrono::milliseconds wait) const;
  // GET /v1/agents: each registered node's declared rate, bytes/s (a node whose entry has
  // no positive number for it is left out; none from a coordinator without the list).
  // Throws as job().
  std::map<std::string, double> agent_rates() const;
  // POST /v1/jobs/{id}/cancel; what the coordinator answered is not needed.
  void cancel(const std::string& id) const;

  const std::string& address() const { return host_port_; }

 private:
  std::string host_port_;
  std::string host_;
  int port_ = 0;
  std::string token_;
  mutable std::mutex waiting_mutex_;  // one request at a time on the kept-alive connection
  mutable std::unique_ptr<httplib::Client> waiting_;
};

}  // namespace baton::coupling
