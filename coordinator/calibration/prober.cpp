#include "coordinator/calibration/prober.h"

#include "coordinator/calibration/fit.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace baton::calibration {
namespace {

constexpr std::size_t kSizeSteps = 5;  // B/16 … B
constexpr std::uint64_t kMinFlowBytes = 64 * 1024;

}  // namespace

Prober::Prober(std::vector<std::string> senders, std::vector<std::string> receivers, ProbeOptions options)
    : senders_(std::move(senders)), receivers_(std::move(receivers)), options_(options),
      pilot_bytes_(options.pilot_bytes) {
  if (senders_.empty() || receivers_.empty()) throw std::invalid_argument("a calibration needs senders and receivers");
  pair_rates_.assign(pairs(), 0);
}

std::size_t Prober::pairs() const { return std::max(senders_.size(), receivers_.size()); }
std::size_t Prober::max_flows() const { return std::min(senders_.size(), receivers_.size()); }

ProbeFlow Prober::pair(std::size_t i, std::uint64_t bytes) const {
  return ProbeFlow{i % senders_.size(), i % receivers_.size(), bytes};
}

double Prober::rate_of(std::uint64_t bytes, double seconds) const {
  // A step shorter than β says nothing about the rate beyond "fast": count its whole time.
  const double moving = seconds - beta_ > 0 ? seconds - beta_ : seconds;
  return static_cast<double>(bytes) / std::max(moving, 1e-9);
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
    case Phase::curve: {
      ProbeStep step{"curve", {}, 0};
      std::uint64_t total = 0;
      for (std::size_t i = 0; i < index_; ++i) {
        const auto bytes = static_cast<std::uint64_t>(std::max(1.0, options_.flow_seconds * pair_rates_[i]));
        step.flows.push_back(pair(i, bytes));
        total += bytes;
      }
      // Each flow at its pair's rate, or all of them sharing the best aggregate so far.
      step.expected_seconds =
          beta_ + std::max(options_.flow_seconds, static_cast<double>(total) / std::max(best_rate_, 1.0));
      return step;
    }
    case Phase::done: return std::nullopt;
  }
  return std::nullopt;
}

void Prober::measured(double seconds) {
  const std::optional<ProbeStep> step = next();
  if (!step) throw std::logic_error("calibration: a time measured after the last step");
  ++steps_;
  for (const ProbeFlow& f : step->flows) bytes_ += f.bytes;
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
      sizes_.push_back(SizePoint{step->flows[0].bytes, seconds});
      if (++index_ == kSizeSteps) finish_sizes();
      return;
    case Phase::rates:
      pair_rates_[index_] = rate_of(flow_bytes_, seconds);
      if (++index_ < pairs()) return;
      phase_ = max_flows() >= 2 ? Phase::curve : Phase::done;
      index_ = 2;
      return;
    case Phase::curve: {
      std::uint64_t bytes = 0;
      for (const ProbeFlow& f : step->flows) bytes += f.bytes;
      const double rate = rate_of(bytes, seconds);
      curve_.push_back(CurvePoint{static_cast<int>(index_), bytes, seconds, rate});
      // "Where adding a flow stops adding throughput": less than half the added flow's own rate.
      const bool added = rate - best_rate_ >= 0.5 * pair_rates_[index_ - 1];
      best_rate_ = std::max(best_rate_, rate);
      flat_in_a_row_ = added ? 0 : flat_in_a_row_ + 1;
      saturated_ = saturated_ || !added;
      if (flat_in_a_row_ >= 2 || index_ == max_flows()) phase_ = Phase::done;
      ++index_;
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
  beta_ = std::max(0.0, least_squares(points).intercept);
  pair_rates_[0] = rate_of(sizes_.back().bytes, sizes_.back().seconds);
  curve_.push_back(CurvePoint{1, sizes_.back().bytes, sizes_.back().seconds, pair_rates_[0]});
  best_rate_ = pair_rates_[0];
  index_ = 1;
  phase_ = pairs() > 1 ? Phase::rates : Phase::done;
}

Calibration Prober::result() const {
  if (phase_ != Phase::done) throw std::logic_error("calibration: result asked before the last step");
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
  c.D = best_rate_;
  c.beta = beta_;
  c.k = k_of(c.D, c.d);
  c.saturated = saturated_;
  c.curve = curve_;
  c.sizes = sizes_;
  c.flow_seconds = options_.flow_seconds;
  c.probe_steps = steps_;
  c.probe_bytes = bytes_;
  return c;
}

}  // namespace baton::calibration
