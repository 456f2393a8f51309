// An independent check of any redistribution schedule against the problem it claims to
// solve: the KPBS rules (Section 2.2 of the kpbs paper) and docs/formats.md's accounting. It
// shares no code with the schedulers.
#pragma once

#include "coordinator/schedule/kpbs/platform.h"
#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/schedule.h"

#include <string>
#include <vector>

namespace baton::schedule::kpbs {

struct ValidationOptions {
  double rate = 1;          // amount per time unit (bytes/s in platform form)
  bool kpbs_rules = true;   // check k and 1-port; off only for the all-at-once baseline
  double tolerance = 1e-9;  // relative tolerance for sums of amounts and times
  // Nodes of their own rates (platform.h; `rate` is then not used). Unless `shared`, each
  // transfer runs at its pair's rate and a step lasts its longest transfer at that rate.
  const NodeRates* node_rates = nullptr;
  // The fluid plan's steps (kpbs_rules off): the transfers of a step share the links, each
  // at amount / duration. A node has at most `connection_limit` of them, and the step lasts
  // at least each node's amount over its rate and the step's amount over the backbone, so
  // that no node's transfers together exceed its rate.
  bool shared = false;
  std::size_t connection_limit = 0;
};

struct Validation {
  std::vector<std::string> errors;  // empty when the schedule is valid (at most 20 kept)
  double cost = 0;                  // Σ (β + longest amount/rate), recomputed
  bool ok() const { return errors.empty(); }
};

// `amounts` is the matrix the schedule must move (times, or bytes with options.rate = d).
// Checks: every transfer joins an existing (sender, receiver) pair with a positive finite
// amount; every step is a matching (no sender or receiver twice) of at most k transfers;
// every step's duration is its longest transfer / rate; the amounts of each pair add up
// to the matrix entry. With `node_rates`, the durations as described there.
Validation validate(const Matrix& amounts, int k, double beta, const Schedule& schedule,
                    const ValidationOptions& options = {});

}  // namespace baton::schedule::kpbs
