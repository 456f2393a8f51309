#include "coordinator/calibration/drift.h"

#include "coordinator/calibration/calibration.h"
#include "coordinator/calibration/fit.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace baton::calibration {
namespace {

double rate(std::uint64_t bytes, double seconds) { return static_cast<double>(bytes) / std::max(seconds, 1e-9); }

// A flow's rate as its receiver saw it; the step's longest flow over the step's time when
// no receiver reported.
std::vector<double> flow_rates(const StepSample& s, double beta) {
  std::vector<double> out;
  for (const FlowSample& f : s.flows) out.push_back(rate(f.bytes, f.seconds));
  if (out.empty()) out.push_back(rate(s.longest_flow, s.measured - beta));
  return out;
}

}  // namespace

bool on_model(const StepSample& step, const DriftOptions& options) {
  const double off = std::abs(step.measured - step.predicted);
  return off <= options.threshold * step.predicted || off <= options.min_seconds;
}

std::optional<Drift> DriftDetector::observe(const StepSample& step) {
  const double off = step.measured - step.predicted;
  if (on_model(step, options_)) {
    run_.clear();
    before_.push_back(step);
    if (static_cast<int>(before_.size()) > options_.steps) before_.erase(before_.begin());
    return std::nullopt;
  }
  const Direction direction = off > 0 ? Direction::slower : Direction::faster;
  if (!run_.empty() && direction != direction_) run_.clear();
  direction_ = direction;
  run_.push_back(step);
  if (static_cast<int>(run_.size()) < options_.steps) return std::nullopt;
  std::vector<double> ratios;
  for (const StepSample& s : run_) ratios.push_back(s.measured / s.predicted);
  Drift drift{direction_, std::move(run_), median(std::move(ratios)), std::move(before_)};
  run_.clear();
  before_.clear();
  return drift;
}

Estimate estimate(const Model& model, const Drift& drift, const DriftOptions& options, const Estimate* previous) {
  Estimate out{.model = model, .cause = Cause::startup, .before = model};
  const auto excess = [](const std::vector<StepSample>& steps) {
    std::vector<double> late_by;
    for (const StepSample& s : steps) late_by.push_back(s.measured - s.predicted);
    return median(std::move(late_by));
  };
  const double late = excess(drift.steps);
  const double late_before = drift.before.empty() ? 0 : excess(drift.before);
  if (drift.direction == Direction::faster) {
    // Flows paced at d cannot beat it: the model overstated what every step costs.
    out.model.beta = std::max(kMinStepStartup, model.beta + late);
    return out;
  }
  if (late_before > 0 && late_before >= late / 2) {  // the same seconds late, whatever the step's size
    out.model.beta = model.beta + late;
    return out;
  }
  // What the steps before were late by is a cost of every step, not of the bytes.
  const double beta = model.beta + std::max(0.0, late_before);
  out.model.beta = beta;
  std::vector<double> flows, flow_medians;
  for (const StepSample& s : drift.steps) {
    flows.push_back(static_cast<double>(std::max<std::size_t>(s.flows.size(), 1)));
    flow_medians.push_back(median(flow_rates(s, beta)));
  }
  out.flows = median(flows);
  out.flow_rate = median(flow_medians);
  // Were (nearly) all flows of wide steps slowed alike?
  std::size_t slow = 0, total = 0;
  bool wide = true;
  std::vector<double> aggregates, slowest;
  for (const StepSample& s : drift.steps) {
    const std::vector<double> rates = flow_rates(s, beta);
    for (const double r : rates) slow += r < model.d * (1 - options.threshold) ? 1 : 0;
    total += rates.size();
    wide = wide && rates.size() >= 2;
    aggregates.push_back(rate(s.bytes, s.measured - beta));
    slowest.push_back(*std::ranges::min_element(rates));
  }
  const bool alike = wide && 4 * slow >= 3 * total;
  const bool same_flows_slower_still =
      previous && previous->cause == Cause::backbone && out.flows < previous->flows &&
      std::abs(out.flow_rate - previous->flow_rate) <= options.threshold * previous->flow_rate;
  if (alike && !same_flows_slower_still) {
    out.cause = Cause::backbone;
    out.model.D = median(std::move(aggregates));
  } else if (alike) {  // the guess of `previous` was wrong: the nodes, and the backbone as before it
    out.cause = Cause::nodes;
    out.model.d = out.flow_rate;
    out.model.D = previous->before.D;
  } else {
    out.cause = Cause::nodes;
    out.model.d = median(std::move(slowest));
  }
  return out;
}

std::string describe(const Drift& drift, const DriftOptions& options) {
  std::ostringstream out;
  out.precision(3);
  const bool slower = drift.direction == Direction::slower;
  out << "steps " << drift.steps.front().step << "-" << drift.steps.back().step << " ran " << drift.ratio
      << "x the model's time (more than " << std::lround(options.threshold * 100) << " % "
      << (slower ? "slower" : "faster") << ", " << drift.steps.size() << " in a row)";
  return out.str();
}

}  // namespace baton::calibration
