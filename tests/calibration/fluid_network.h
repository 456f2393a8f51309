// A network computed independently of what is tested: the KPBS paper's platform as fluid
// flows. Senders and receivers with their own rates on two sides of one backbone of rate D;
// concurrent flows share the backbone max-min fairly (water-filling), each capped by the
// slower of its two ends; a step lasts β plus until its last flow has finished.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace baton::calibration::test {

struct FluidFlow {
  std::size_t sender = 0, receiver = 0;
  double bytes = 0;
};

struct FluidNetwork {
  std::vector<double> senders, receivers;  // bytes/s
  double backbone = 0;                     // bytes/s
  double beta = 0;                         // s

  // Each live flow's rate now: water-filling of the backbone over the flows' caps.
  std::vector<double> rates(const std::vector<FluidFlow>& flows, const std::vector<double>& left) const {
    std::vector<double> cap(flows.size()), rate(flows.size(), 0);
    std::vector<std::size_t> live;
    for (std::size_t i = 0; i < flows.size(); ++i) {
      if (left[i] <= 0) continue;
      cap[i] = std::min(senders[flows[i].sender], receivers[flows[i].receiver]);
      live.push_back(i);
    }
    std::ranges::sort(live, [&](std::size_t a, std::size_t b) { return cap[a] < cap[b]; });
    double room = backbone;
    for (std::size_t n = 0; n < live.size(); ++n) {
      const double share = room / static_cast<double>(live.size() - n);
      rate[live[n]] = std::min(cap[live[n]], share);
      room -= rate[live[n]];
    }
    return rate;
  }

  // The seconds a step of these flows takes.
  double step_seconds(const std::vector<FluidFlow>& flows) const {
    std::vector<double> left;
    for (const FluidFlow& f : flows) left.push_back(f.bytes);
    double t = 0;
    for (;;) {
      const std::vector<double> r = rates(flows, left);
      double next = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < flows.size(); ++i) {
        if (left[i] > 0) next = std::min(next, left[i] / r[i]);
      }
      if (next == std::numeric_limits<double>::infinity()) return beta + t;
      t += next;
      for (std::size_t i = 0; i < flows.size(); ++i) {
        if (left[i] <= 0) continue;
        left[i] -= r[i] * next;
        if (left[i] <= 1e-9 * flows[i].bytes) left[i] = 0;
      }
    }
  }
};

}  // namespace baton::calibration::test
