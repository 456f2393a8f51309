// A job as submitted to the coordinator's API: a redistribution (docs/runtime.md, "A job":
// the two clusters, the platform, the algorithm, and transfers or a pattern that expands
// to them) or, by its "kind", a collective (docs/collectives.md, "Jobs").
#pragma once

#include "coordinator/collectives/collective_job.h"
#include "coordinator/jobs/job.h"
#include "coordinator/json/input.h"
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/platform.h"

#include <optional>
#include <string>
#include <vector>

namespace baton::coordinator {

// The most transfers a job may hold, given or expanded from a pattern. A 1 TiB array
// redistributed in 1 MiB blocks expands to 2^20 of them; planning that many takes about
// 10 s and 0.6 GiB on the coordinator (docs/runtime.md, "Limits").
inline constexpr std::size_t kMaxJobTransfers = std::size_t{1} << 21;

// The highest "priority" a job may ask for, and minus it the lowest.
inline constexpr std::int64_t kMaxPriority = 1'000'000;

// The range of a job's "weight" (docs/runtime.md, "Jobs that share nodes").
inline constexpr double kMinWeight = 0.01;
inline constexpr double kMaxWeight = 100;

struct JobSpec {
  jobs::JobKind kind = jobs::JobKind::redistribution;
  // A redistribution.
  jobs::Clusters clusters;
  std::vector<jobs::TransferSpec> transfers;
  schedule::kpbs::Platform platform;
  schedule::kpbs::Algorithm algorithm = schedule::kpbs::kDefaultAlgorithm;
  // False for a job without "platform": the coordinator plans it on a calibration of its
  // nodes (docs/calibration.md) and fills `platform` and `calibration` in before it is
  // journaled.
  bool platform_given = true;
  // The calibration the platform was measured by ("calibration": an id), or empty: declared.
  std::string calibration;
  // "replan": whether the job is re-planned when the network drifts from its model; unset,
  // the coordinator's default (jobs on a measured platform are, declared ones are not).
  std::optional<bool> replan;
  // Every other kind.
  collectives::CollectiveJob collective;
  // "priority" (any kind, default 0): among jobs waiting for their nodes, a higher one
  // starts first (docs/runtime.md, "Jobs at once").
  std::int64_t priority = 0;
  // "weight" (a redistribution's, default 1): running beside other jobs on a node, the job
  // gets the node's rate in proportion to its weight among theirs (node_shares.h).
  double weight = 1;
  // "keep_plan" (a redistribution's, default false): the agents keep its plan once it
  // ended, for exchanges their applications start (a persistent handoff's; docs/embedding.md,
  // "Persistent handoffs").
  bool keep_plan = false;
  // Whether the job may run beside others on its nodes, each paced at its share: a
  // redistribution whose flows are paced (not all-at-once). Every other job has its
  // nodes to itself.
  bool shares_nodes() const;
  // Which file each (node, name) of the job is, as its agents answered at submit (empty
  // for names not asked about: those are compared by storage id and normal form). Not part
  // of the job's JSON.
  jobs::LearntIdentities identities;

  // Every node of the job: a redistribution's senders, then its receivers (a node in both
  // is listed twice); a collective's nodes.
  std::vector<std::string> nodes() const;
  std::string algorithm_name() const;
  // Every (node, name) the job reads or writes, each once (what its agents are asked
  // about before it is accepted).
  std::vector<std::pair<std::string, std::string>> objects() const;
};

// Parses and checks a job's JSON. Throws json::InputError (one line naming the field) for
// bad input, including transfers that fail check_transfers and a pattern that would
// expand to more than kMaxJobTransfers (refused before it is expanded).
JobSpec parse_job_spec(const std::string& document);

// A collective job as JSON in the shape parse_job_spec reads, every default written out
// (the journal keeps this, once the message lengths are resolved), with "priority" when it is
// not 0.
std::string collective_json(const collectives::CollectiveJob& job, std::int64_t priority = 0);

// The collectives' parts of parse_job_spec and collective_json (job_spec_reduce.cpp,
// job_spec_multicast.cpp).
collectives::CollectiveJob parse_reduce_job(const json::Json& job, jobs::JobKind kind);
collectives::CollectiveJob parse_multicast_job(const json::Json& job, jobs::JobKind kind);
json::Json reduce_job_json(const collectives::CollectiveJob& job);
json::Json multicast_job_json(const collectives::CollectiveJob& job);

}  // namespace baton::coordinator
