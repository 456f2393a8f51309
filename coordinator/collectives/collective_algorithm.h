// The algorithms a collective job may name (docs/collectives.md, "Jobs"): parsed once
// from the job's JSON (coordinator/daemon/spec_fields.h), dispatched by switch, and named
// back only where a job, a report or a journal record is written. The names are a
// contract (docs/formats.md): a journal written by an older build reads them back.
#pragma once

#include "coordinator/jobs/job_kind.h"
#include "coordinator/schedule/buffered_multicast/algorithms.h"
#include "coordinator/schedule/multicast/algorithms.h"
#include "coordinator/schedule/reduction/algorithms.h"

#include <optional>
#include <string_view>
#include <vector>

namespace baton::collectives {

enum class Algorithm {
  automatic,  // "auto": every other algorithm of the job's kind predicted; the fastest runs
  // The SNF paper's reductions (reduce) and all-reductions (allreduce, with binomial).
  snf,
  dp,
  bnb,
  binomial,  // reduce, allreduce; for a multicast, the binomial baseline
  snf_fnf,
  // The multicast paper's schedulers ("wrp" is WR with preemptive placement).
  fef,
  ecf,
  wr,
  eaf,
  rr,
  rrs,
  ecfp,
  wrp,
  eafp,
  rrp,
  rrsp,
  // Buffered multicast: Procedures Coloring and Ordered-Coloring.
  coloring,
  ordered_coloring,
  // Baselines (flat: reduce and multicast; ring: allreduce) and Baton's own.
  flat,
  ring,
  pipelined_tree,
  rate_rsag,
};

// "auto", "snf", ..., "pipelined-tree", "rate-rsag".
std::string_view name(Algorithm algorithm);
// The algorithms of `kind`, its default ("auto") first; none for a redistribution.
std::vector<Algorithm> algorithms(jobs::JobKind kind);
// One of `kind`'s algorithms by its name, or nothing.
std::optional<Algorithm> parse_algorithm(jobs::JobKind kind, std::string_view name);

// The paper's scheduler an algorithm runs. Each throws std::logic_error for an algorithm
// that is not one of its family (a caller's bug: the job's kind decides which is asked).
schedule::reduction::ReductionAlgorithm reduction_scheduler(Algorithm algorithm);
schedule::reduction::AllReduceAlgorithm allreduce_scheduler(Algorithm algorithm);
schedule::multicast::Algorithm multicast_scheduler(Algorithm algorithm);
schedule::buffered_multicast::Algorithm buffered_multicast_scheduler(Algorithm algorithm);

}  // namespace baton::collectives
