// The probe sequence of a calibration (docs/calibration.md, "Method"), as a state machine
// the coordinator's driver runs one step at a time: next() says what to send, measured()
// takes the step's time as the coordinator saw it (release to the last report, as every
// step of a job is measured), and result() turns the times into d, D, β and k.
//
//   pilot     one flow s1 → r1, ×4 in size until it lasts pilot_seconds: a first rate d0
//   sizes     one flow s1 → r1 of B/16, B/8, B/4, B/2, B (B = flow_seconds × d0): β1, the
//             intercept of the least-squares line of time against bytes
//   rates     one flow at a time, s_i → r_i (indices wrapping), B bytes each: every node's
//             rate, bytes / (time − β1); then every pair more than kRecheckBelow under the
//             median pair is measured once more, and the faster of its two flows counts
//   curve     c = 2, 3, … concurrent flows s_i → r_i, each sized to last flow_seconds at
//             its pair's rate: their aggregate rate, until adding a flow adds less than half
//             its own rate twice in a row, or every pair runs
//   start-up  k concurrent flows (k from the curve) of 1/16 … 1 of those sizes: β, the
//             intercept of the line of time against the flows' length. A step of the plans
//             holds k flows and ends with the slowest: its start-up is the width-k one
//             (on the 2-core machine of docs/calibration.md, 7 flows start in ~8 ms where
//             one starts in ~1).
//
// Every flow is unpaced: each measures what the network gives it.
#pragma once

#include "coordinator/calibration/calibration.h"
#include "coordinator/calibration/fit.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace baton::calibration {

// d is the slowest pair, so one flow slowed once sets it for every job. Measured on the
// Fig. 16 cluster, quiet pairs lie within 2 % of their median; single flows came out 4.6 %
// and 7.4 % slow (passing the retry above 1.15x the expected time this replaces), 28 %
// (passing the 1.5x before that) and 46 % (a load average of 10). A pair this far under
// the median is measured again; a node that is slow is slow both times.
inline constexpr double kRecheckBelow = 0.03;

struct ProbeOptions {
  double flow_seconds = 0.4;             // how long a probe flow should last
  std::uint64_t pilot_bytes = 1u << 20;  // the first flow, before any rate is known
  double pilot_seconds = 0.05;           // the pilot grows until it lasts at least this
  std::uint64_t max_flow_bytes = std::uint64_t{4} << 30;
};

struct ProbeFlow {
  std::size_t sender = 0;    // index into the senders
  std::size_t receiver = 0;  // index into the receivers
  std::uint64_t bytes = 0;
};

struct ProbeStep {
  std::string phase;  // "pilot", "sizes", "rates", "curve" or "start-up"
  std::vector<ProbeFlow> flows;
  double expected_seconds = 0;  // what the figures so far predict (0: nothing known yet)
};

class Prober {
 public:
  // Throws error::InvalidInput for an empty group.
  Prober(std::vector<std::string> senders, std::vector<std::string> receivers, ProbeOptions options = {});

  // The step to run next, or nullopt once the calibration is complete.
  std::optional<ProbeStep> next() const;
  // The measured time of the step next() gave.
  void measured(double seconds);
  bool done() const { return phase_ == Phase::done; }
  // REQUIRES: done().
  Calibration result() const;

 private:
  enum class Phase { pilot, sizes, rates, recheck, curve, startup, done };
  std::size_t pairs() const;      // the rates phase's flows: max(n1, n2)
  std::size_t max_flows() const;  // the curve's: min(n1, n2)
  ProbeFlow pair(std::size_t i, std::uint64_t bytes) const;
  // Pairs 0 … flows − 1, each sized to last `seconds` at its rate.
  std::vector<ProbeFlow> lasting(std::size_t flows, double seconds) const;
  std::uint64_t bytes_of(const std::vector<ProbeFlow>& flows) const;
  // The curve's aggregate rate at point `p`, net of the start-up of a step that wide.
  double aggregate(const CurvePoint& p, double beta) const;
  void finish_sizes();
  void finish_rates();
  void start_curve();
  void finish_curve();
  void finish_startup();

  std::vector<std::string> senders_, receivers_;
  ProbeOptions options_;
  Phase phase_ = Phase::pilot;
  std::uint64_t pilot_bytes_;
  std::uint64_t flow_bytes_ = 0;  // B
  double pilot_rate_ = 0;         // d0
  std::size_t index_ = 0;         // within the phase: size step, pair, recheck, or curve's flow count
  double beta_one_ = 0;           // β1
  double beta_ = 0;               // β, of the start-up series (β1 until it ran)
  std::vector<SizePoint> sizes_;
  std::vector<double> pair_rates_;     // by pair index, from the sizes (pair 0) and rates phases
  std::vector<std::size_t> rechecks_;  // the pairs the recheck measures again
  std::vector<CurvePoint> curve_;
  double best_rate_ = 0;   // the curve's highest aggregate so far
  int flat_in_a_row_ = 0;  // curve steps in a row that added less than half a flow
  bool saturated_ = false;
  std::size_t width_ = 1;              // the start-up series' flows: k from the curve
  std::vector<Point> startup_points_;  // its steps: seconds against their longest flow's length
  int steps_ = 0;
  std::uint64_t bytes_ = 0;
};

}  // namespace baton::calibration
