#include "coordinator/schedule/kpbs/platform.h"

#include "error/error.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace baton::schedule::kpbs {

double flow_rate(const Platform& platform) {
  return std::min({platform.sender_rate, platform.receiver_rate, platform.backbone_rate});
}

int derive_k(const Platform& platform, std::size_t senders, std::size_t receivers) {
  const double fit = std::floor(platform.backbone_rate / flow_rate(platform));
  const double k = std::min({static_cast<double>(senders), static_cast<double>(receivers), fit});
  return static_cast<int>(std::max(k, 1.0));
}

Problem normalize(const PlatformProblem& problem) {
  const double d = flow_rate(problem.platform);
  if (!(d > 0) || !(problem.platform.step_startup > 0)) {
    throw error::InvalidInput("platform rates and step start-up must be > 0");
  }
  Problem out;
  out.times = Matrix(problem.bytes.senders(), problem.bytes.receivers());
  for (std::size_t i = 0; i < problem.bytes.senders(); ++i) {
    for (std::size_t j = 0; j < problem.bytes.receivers(); ++j) {
      out.times.at(i, j) = problem.bytes.at(i, j) / d;
    }
  }
  out.k = derive_k(problem.platform, problem.bytes.senders(), problem.bytes.receivers());
  out.beta = problem.platform.step_startup;
  return out;
}

Schedule to_bytes(const Schedule& in_time, const PlatformProblem& problem) {
  const double d = flow_rate(problem.platform);
  const std::size_t cols = problem.bytes.receivers();
  std::vector<int> pieces_left(problem.bytes.senders() * cols, 0);
  for (const Step& step : in_time.steps) {
    for (const Transfer& t : step.transfers) ++pieces_left[t.src * cols + t.dst];
  }
  std::vector<double> sent_time(pieces_left.size(), 0), sent_bytes(pieces_left.size(), 0);
  Schedule out;
  for (const Step& step : in_time.steps) {
    Step bytes_step;
    for (const Transfer& t : step.transfers) {
      const std::size_t cell = t.src * cols + t.dst;
      const double total = problem.bytes.at(t.src, t.dst);
      sent_time[cell] += t.amount;
      const double until = --pieces_left[cell] == 0 ? total : std::min(total, std::round(sent_time[cell] * d));
      const double amount = until - sent_bytes[cell];
      if (amount <= 0) continue;
      sent_bytes[cell] = until;
      bytes_step.transfers.push_back(Transfer{t.src, t.dst, amount});
    }
    if (!bytes_step.transfers.empty()) out.steps.push_back(std::move(bytes_step));
  }
  set_durations(out, d);
  return out;
}

}  // namespace baton::schedule::kpbs
