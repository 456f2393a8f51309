// One process's part in coupled codes (docs/embedding.md, "Coupled codes"): an embedded
// agent for this node, the arrays it shares, and handoffs that have the coordinator move
// an array from one group's layout to another's.
//
//   Session s({.node_id = "ocean-1", .coordinator = "head:7071", .api = "head:7070", .secret = key});
//   s.share("sst", rows, std::as_writable_bytes(std::span(local)));   // this node's part of `rows`
//   s.set_agree([&](std::uint64_t v) { return mpi_allreduce_max(v); });
//   HandoffResult r = s.handoff("sst", rows, cols);                    // every node of both groups
//
// A handoff is collective when `agree` is set: every process of both groups calls it, in
// the same order; the first node of `from` submits the job and the others learn its id
// through `agree`. Without `agree`, the one process that calls it (a coupler) submits the
// job and waits; the codes then order their own access to the arrays.
#pragma once

#include "coupling/coordinator_api.h"
#include "coupling/error.h"
#include "coupling/handoff_job.h"
#include "coupling/layout.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace baton {
class EmbeddedAgent;
}

namespace baton::coupling {

struct SessionOptions {
  std::string node_id;      // this process's node; empty: none (a coupler or a script)
  std::string coordinator;  // "host:port" of the coordinator's agent listener (with a node)
  std::string api;          // "host:port" of the coordinator's HTTP API
  std::string secret;       // the cluster's shared secret (with a node)
  std::string api_token;    // the API's bearer token, if it requires one
  std::string data_address = "127.0.0.1:0";
  // Peers on this host through shared memory (EmbeddedOptions::same_host_memory).
  bool same_host_memory = false;
  // Collective handoffs keep their plan on the agents and, the next time the same array is
  // handed over between the same layouts, run it again among themselves, submitting no job
  // (docs/embedding.md, "Persistent handoffs"). Off: every handoff is a job.
  bool keep_plans = true;
  HandoffPlatform platform;  // this node's rate, and the platform of the jobs it submits
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};  // registering; each handoff
};

enum class JobState { done, failed, cancelled };

struct HandoffResult {
  JobState state = JobState::failed;
  std::string job;           // the coordinator's id of the job
  std::string error;         // why it failed or was cancelled; empty when done
  bool reused_spec = false;  // the job's JSON came from an earlier handoff of the same layouts
  // The coordinator ran the plan it compiled for an earlier job of the same transfers (the
  // report's "plan_reused_from"; docs/embedding.md, "What is reused").
  bool reused_plan = false;
  // An exchange of the plan the agents kept from the job `job` (docs/embedding.md,
  // "Persistent handoffs"): no job was submitted; bytes, steps and the model's figures are
  // that job's, measured_seconds this node's time in the exchange.
  bool kept_plan = false;
  // Why an exchange of a kept plan failed, when one was tried and this handoff then ran as
  // a job (which says how it went); empty otherwise.
  std::string exchange_error;
  std::uint64_t bytes = 0;
  std::uint64_t steps = 0;
  double predicted_seconds = 0, measured_seconds = 0, lower_bound_seconds = 0;
  std::string report;  // GET /v1/jobs/{id} as the coordinator answered it, JSON
};

// `agree(v)` must return the largest v that the processes of both groups passed to their
// own call (MPI_Allreduce with MPI_MAX over a communicator holding both codes). It is also
// the barrier: no process's call returns before every process has made its own.
using Agree = std::function<std::uint64_t(std::uint64_t)>;

class Session {
 public:
  // With a node: starts the embedded agent and waits (up to options.timeout) until the
  // coordinator registered it. Throws Error: invalid_argument naming a missing option,
  // unreachable when the coordinator does not register the node in time.
  explicit Session(SessionOptions options);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // This node's part of `layout`, under `name`, `bytes` read and written in place while a
  // handoff of it runs. Throws Error: invalid_argument (no node, not in the layout's
  // group), region_too_small (fewer bytes than the part).
  void share(const std::string& name, const Layout& layout, std::span<std::byte> bytes);
  void unshare(const std::string& name);
  void set_agree(Agree agree) { agree_ = std::move(agree); }

  // Moves the array `name` from `from` to `to`; returns when the coordinator ended the
  // job. Throws Error before the job (unknown_name: this node is in a group but shared
  // nothing as `name`; invalid_argument: it shared another layout; unreachable; timeout);
  // a job that ran and failed is a result, not an exception.
  HandoffResult handoff(const std::string& name, const Layout& from, const Layout& to);

  // For scripts: submit any job's JSON; read a job (GET /v1/jobs/{id}, JSON).
  std::string submit(const std::string& job_json) { return api_.submit(job_json); }
  std::string job(const std::string& id) { return api_.job(id).dump(); }

  const std::string& node_id() const { return options_.node_id; }

 private:
  struct Shared {
    Layout layout;
    std::span<std::byte> bytes;
  };
  // Why this process cannot take part in the handoff (its part not shared as the layout
  // says), or none.
  std::optional<Error> why_not(const std::string& name, const Layout& from, const Layout& to) const;
  // The leader submits; with `agree`, every process learns the job's id (or the failure).
  std::string agree_on_job(const std::string& name, const Layout& from, const Layout& to, bool leader);
  std::string submit_handoff(const std::string& name, const Layout& from, const Layout& to);
  // Waits for the job to end (GET ?wait=, one look per 5 s); after options_.timeout the
  // leader cancels it.
  HandoffResult wait(const std::string& job, bool leader);
  // The plan a collective handoff's job left on the agents, that job's result, and its
  // answer parsed (each exchange's report is it with "exchange" added).
  struct Kept {
    std::string job;
    HandoffResult first;
    nlohmann::json answer;
  };
  // Exchange `number` of `kept`'s plan on this node (if `member`), then the round that tells
  // every process how every exchange went: the handoff's result, or nothing when one failed
  // (`error` then says why, as this process knows it).
  std::optional<HandoffResult> exchange(Kept& kept, std::uint64_t number, bool member, std::string& error);

  SessionOptions options_;
  CoordinatorApi api_;
  std::unique_ptr<EmbeddedAgent> agent_;
  std::map<std::string, Shared> shared_;
  // The job JSON of each (name, from, to) handed off before: built once (by the leader; the
  // others keep an empty one to say the layouts were seen), submitted again.
  std::map<std::string, std::string> specs_;
  // The kept plan of each (name, from, to) handed off collectively before, by the same key.
  std::map<std::string, Kept> kept_;
  Agree agree_;
};

}  // namespace baton::coupling
