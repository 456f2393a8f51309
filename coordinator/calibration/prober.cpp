#include "coordinator/calibration/prober.h"

#include "coordinator/calibration/fit.h"
#include "error/error.h"

#include <algorithm>
#include <cmath>

namespace baton::calibration {
namespace {

constexpr std::size_t kSizeSteps = 5;  // 1/16 … 1
constexpr std::uint64_t kMinFlowBytes = 64 * 1024;
// A step this much off the line may be left out of a fit (fit.h): below it is timer noise.
constexpr double kOutlierFloor = 0.002;

// The index-th size of a series: 1/16, 1/8, 1/4, 1/2, 1.
double fraction(std::size_t index) {
  return std::ldexp(1.0, static_cast<int>(index) - static_cast<int>(kSizeSteps - 1));
}

}  // namespace

Prober::Prober(std::vector<std::string> senders, std::vector<std::string> receivers, ProbeOptions options)
    : senders_(std::move(senders)), receivers_(std::move(receivers)), options_(options),
      pilot_bytes_(options.pilot_bytes) {
  if (senders_.empty() || receivers_.empty()) throw error::InvalidInput("a calibration needs senders and receivers");
  pair_rates_.assign(pairs(), 0);
}

std::size_t Prober::pairs() const { return std::max(senders_.size(), receivers_.size()); }
std::size_t Prober::max_flows() const { return std::min(senders_.size(), receivers_.size()); }

ProbeFlow Prober::pair(std::size_t i, std::uint64_t bytes) const {
  return ProbeFlow{i % senders_.size(), i % receivers_.size(), bytes};
}

std::vector<ProbeFlow> Prober::lasting(std::size_t flows, double seconds) const {
  std::vector<ProbeFlow> out;
  for (std::size_t i = 0; i < flows; ++i) {
    out.push_back(pair(i, static_cast<std::uint64_t>(std::max(1.0, seconds * pair_rates_[i]))));
  }
  return out;
}

std::uint64_t Prober::bytes_of(const std::vector<ProbeFlow>& flows) const {
  std::uint64_t total = 0;
  for (const ProbeFlow& f : flows) total += f.bytes;
  return total;
}

double Prober::aggregate(const CurvePoint& p, double beta) const {
  // A step shorter than its start-up says nothing about the rate beyond "fast": count its
  // whole time.
  const double moving = p.seconds - beta > 0 ? p.seconds - beta : p.seconds;
  return static_cast<double>(p.bytes) / std::max(moving, 1e-9);
}

std::optional<ProbeStep> Prober::next() const {
  const auto at_pilot_rate = [&](std::uint64_t bytes) { return beta_ + static_cast<double>(bytes) / pilot_rate_; };
  switch (phase_) {
    case Phase::pilot: return ProbeStep{"pilot", {pair(0, pilot_bytes_)}, 0};
    case Phase::sizes: {
      const std::uint64_t bytes = std::max<std::uint64_t>(flow_bytes_ >> (kSizeSteps - 1 - index_), 1);
      return ProbeStep{"sizes", {pair(0, bytes)}, at_pilot_rate(bytes)};
    }
    case Phase::rates: return ProbeStep{"rates", {pair(index_, flow_bytes_)}, at_pilot_rate(flow_bytes_)};
    case Phase::recheck: return ProbeStep{"rates", {pair(rechecks_[index_], flow_bytes_)}, at_pilot_rate(flow_bytes_)};
    case Phase::curve: {
      ProbeStep step{"curve", lasting(index_, options_.flow_seconds), 0};
      // Each flow at its pair's rate, or all of them sharing the best aggregate so far.
      step.expected_seconds =
          beta_ + std::max(options_.flow_seconds, static_cast<double>(bytes_of(step.flows)) / best_rate_);
      return step;
    }
    case Phase::startup: {
      const double seconds = fraction(index_) * options_.flow_seconds;
      return ProbeStep{"start-up", lasting(width_, seconds), beta_ + seconds};
    }
    case Phase::done: return std::nullopt;
  }
  return std::nullopt;
}

void Prober::measured(double seconds) {
  const std::optional<ProbeStep> step = next();
  if (!step) throw error::Bug("calibration: a time measured after the last step");
  ++steps_;
  bytes_ += bytes_of(step->flows);
  switch (phase_) {
    case Phase::pilot:
      if (seconds < options_.pilot_seconds && pilot_bytes_ < options_.max_flow_bytes) {
        pilot_bytes_ = std::min(pilot_bytes_ * 4, options_.max_flow_bytes);
        return;
      }
      pilot_rate_ = static_cast<double>(pilot_bytes_) / std::max(seconds, 1e-9);
      flow_bytes_ = std::clamp(static_cast<std::uint64_t>(options_.flow_seconds * pilot_rate_), kMinFlowBytes,
                               options_.max_flow_bytes);
      phase_ = Phase::sizes;
      index_ = 0;
      return;
    case Phase::sizes:
      sizes_.push_back(SizePoint{1, step->flows[0].bytes, seconds});
      if (++index_ == kSizeSteps) finish_sizes();
      return;
    case Phase::rates:
      pair_rates_[index_] = aggregate(CurvePoint{1, flow_bytes_, seconds, 0}, beta_one_);
      if (++index_ == pairs()) finish_rates();
      return;
    case Phase::recheck: {
      double& rate = pair_rates_[rechecks_[index_]];
      rate = std::max(rate, aggregate(CurvePoint{1, flow_bytes_, seconds, 0}, beta_one_));
      if (++index_ == rechecks_.size()) start_curve();
      return;
    }
    case Phase::curve: {
      CurvePoint point{static_cast<int>(index_), bytes_of(step->flows), seconds, 0};
      point.rate = aggregate(point, beta_one_);
      curve_.push_back(point);
      // "Where adding a flow stops adding throughput": less than half the added flow's own rate.
      const bool added = point.rate - best_rate_ >= 0.5 * pair_rates_[index_ - 1];
      best_rate_ = std::max(best_rate_, point.rate);
      flat_in_a_row_ = added ? 0 : flat_in_a_row_ + 1;
      saturated_ = saturated_ || !added;
      if (flat_in_a_row_ >= 2 || index_ == max_flows()) finish_curve();
      else ++index_;
      return;
    }
    case Phase::startup: {
      sizes_.push_back(SizePoint{static_cast<int>(width_), step->flows[0].bytes, seconds});
      double longest = 0;  // its longest flow at its pair's rate (the flows were cut to whole bytes)
      for (std::size_t i = 0; i < step->flows.size(); ++i) {
        longest = std::max(longest, static_cast<double>(step->flows[i].bytes) / pair_rates_[i]);
      }
      startup_points_.push_back(Point{longest, seconds});
      if (++index_ == kSizeSteps) finish_startup();
      return;
    }
    case Phase::done: return;
  }
}

void Prober::finish_sizes() {
  std::vector<Point> points;
  for (const SizePoint& p : sizes_) points.push_back(Point{static_cast<double>(p.bytes), p.seconds});
  // The intercept: a step's cost when it moves nothing (release, connect, authenticate,
  // the first window, reports). Noise can put it a hair below zero; no step costs less.
  beta_one_ = std::max(0.0, least_squares_but_one(points, kOutlierFloor).intercept);
  beta_ = beta_one_;
  pair_rates_[0] = aggregate(CurvePoint{1, sizes_.back().bytes, sizes_.back().seconds, 0}, beta_one_);
  curve_.push_back(CurvePoint{1, sizes_.back().bytes, sizes_.back().seconds, pair_rates_[0]});
  best_rate_ = pair_rates_[0];
  index_ = 1;
  if (pairs() > 1) phase_ = Phase::rates;
  else finish_rates();
}

void Prober::finish_rates() {
  // Every pair under kRecheckBelow the median, pair 0 (measured in the sizes phase) too.
  const double floor = (1 - kRecheckBelow) * median(pair_rates_);
  rechecks_.clear();
  for (std::size_t i = 0; i < pairs(); ++i) {
    if (pair_rates_[i] < floor) rechecks_.push_back(i);
  }
  index_ = 0;
  if (rechecks_.empty()) start_curve();
  else phase_ = Phase::recheck;
}

void Prober::start_curve() {
  phase_ = max_flows() >= 2 ? Phase::curve : Phase::done;
  index_ = 2;
}

void Prober::finish_curve() {
  const double slowest = *std::ranges::min_element(pair_rates_);
  width_ = std::min<std::size_t>(max_flows(), static_cast<std::size_t>(k_of(best_rate_, slowest)));
  phase_ = width_ >= 2 ? Phase::startup : Phase::done;
  index_ = 0;
}

void Prober::finish_startup() {
  // Time against the flows' length in seconds at their pairs' rates: the slope is 1 when
  // they ran at those rates, the intercept is the start-up of a step this wide.
  beta_ = std::max(0.0, least_squares_but_one(startup_points_, kOutlierFloor).intercept);
  phase_ = Phase::done;
}

Calibration Prober::result() const {
  if (phase_ != Phase::done) throw error::Bug("calibration: result asked before the last step");
  Calibration c;
  c.senders = senders_;
  c.receivers = receivers_;
  // A node's rate is its fastest pair's: a pair runs at the slower of its two ends, so the
  // slowest pair is the slowest node, and that is d.
  std::vector<double> send(senders_.size(), 0), receive(receivers_.size(), 0);
  for (std::size_t i = 0; i < pairs(); ++i) {
    const ProbeFlow p = pair(i, 0);
    send[p.sender] = std::max(send[p.sender], pair_rates_[i]);
    receive[p.receiver] = std::max(receive[p.receiver], pair_rates_[i]);
  }
  for (std::size_t i = 0; i < senders_.size(); ++i) c.nodes.push_back(NodeRate{senders_[i], "sender", send[i]});
  for (std::size_t j = 0; j < receivers_.size(); ++j)
    c.nodes.push_back(NodeRate{receivers_[j], "receiver", receive[j]});
  c.d = std::min(*std::ranges::min_element(send), *std::ranges::min_element(receive));
  // Steps of two or more flows start up like the start-up series' steps.
  c.curve = curve_;
  for (CurvePoint& p : c.curve) {
    if (p.flows >= 2) p.rate = aggregate(p, beta_);
    c.D = std::max(c.D, p.rate);
  }
  c.beta = beta_;
  c.beta_one_flow = beta_one_;
  c.k = k_of(c.D, c.d);
  c.saturated = saturated_;
  c.sizes = sizes_;
  c.flow_seconds = options_.flow_seconds;
  c.probe_steps = steps_;
  c.probe_bytes = bytes_;
  return c;
}

}  // namespace baton::calibration
