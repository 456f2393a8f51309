#include "coordinator/schedule/kpbs/platform.h"

#include "error/error.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace baton::schedule::kpbs {
namespace {

double slowest(const std::vector<double>& own, double cluster) { return own.empty() ? cluster : std::ranges::min(own); }

double fastest(const std::vector<double>& own, double cluster) { return own.empty() ? cluster : std::ranges::max(own); }

bool differ(const std::vector<double>& rates) {
  return std::ranges::adjacent_find(rates, std::ranges::not_equal_to{}) != rates.end();
}

std::vector<double> side(const std::vector<double>& own, double cluster, std::size_t nodes, const char* what) {
  if (own.empty()) return std::vector<double>(nodes, cluster);
  if (own.size() != nodes) {
    throw error::InvalidInput(std::string(what) + ": " + std::to_string(own.size()) + " rates for " +
                              std::to_string(nodes) + " nodes");
  }
  for (const double r : own) {
    if (!(r > 0) || !std::isfinite(r)) throw error::InvalidInput(std::string(what) + ": every rate must be > 0");
  }
  return own;
}

// Each pair's rate, min(s_i, r_j, D).
Matrix pair_rates(const Platform& platform, std::size_t senders, std::size_t receivers) {
  const NodeRates rates = node_rates(platform, senders, receivers);
  Matrix out(senders, receivers);
  for (std::size_t i = 0; i < senders; ++i) {
    for (std::size_t j = 0; j < receivers; ++j) out.at(i, j) = pair_rate(rates, i, j);
  }
  return out;
}

}  // namespace

double flow_rate(const Platform& platform) {
  return std::min({slowest(platform.sender_rates, platform.sender_rate),
                   slowest(platform.receiver_rates, platform.receiver_rate), platform.backbone_rate});
}

bool has_node_rates(const Platform& platform) {
  return differ(platform.sender_rates) || differ(platform.receiver_rates);
}

NodeRates node_rates(const Platform& platform, std::size_t senders, std::size_t receivers) {
  return {side(platform.sender_rates, platform.sender_rate, senders, "sender_rates"),
          side(platform.receiver_rates, platform.receiver_rate, receivers, "receiver_rates"), platform.backbone_rate};
}

double pair_rate(const NodeRates& rates, std::size_t sender, std::size_t receiver) {
  return std::min({rates.send.at(sender), rates.receive.at(receiver), rates.backbone});
}

int derive_k(const Platform& platform, std::size_t senders, std::size_t receivers) {
  const double fastest_pair =
      std::min({fastest(platform.sender_rates, platform.sender_rate),
                fastest(platform.receiver_rates, platform.receiver_rate), platform.backbone_rate});
  const double fit = std::floor(platform.backbone_rate / fastest_pair);
  const double k = std::min({static_cast<double>(senders), static_cast<double>(receivers), fit});
  return static_cast<int>(std::max(k, 1.0));
}

Problem normalize(const PlatformProblem& problem) {
  if (!(flow_rate(problem.platform) > 0) || !(problem.platform.step_startup > 0)) {
    throw error::InvalidInput("platform rates and step start-up must be > 0");
  }
  const Matrix rates = pair_rates(problem.platform, problem.bytes.senders(), problem.bytes.receivers());
  Problem out;
  out.times = Matrix(problem.bytes.senders(), problem.bytes.receivers());
  for (std::size_t i = 0; i < problem.bytes.senders(); ++i) {
    for (std::size_t j = 0; j < problem.bytes.receivers(); ++j) {
      out.times.at(i, j) = problem.bytes.at(i, j) / rates.at(i, j);
    }
  }
  out.k = derive_k(problem.platform, problem.bytes.senders(), problem.bytes.receivers());
  out.beta = problem.platform.step_startup;
  return out;
}

Schedule to_bytes(const Schedule& in_time, const PlatformProblem& problem) {
  const Matrix rates = pair_rates(problem.platform, problem.bytes.senders(), problem.bytes.receivers());
  const std::size_t cols = problem.bytes.receivers();
  std::vector<int> pieces_left(problem.bytes.senders() * cols, 0);
  for (const Step& step : in_time.steps) {
    for (const Transfer& t : step.transfers) ++pieces_left[t.src * cols + t.dst];
  }
  Matrix sent_time(problem.bytes.senders(), cols), sent_bytes(problem.bytes.senders(), cols);
  Schedule out;
  for (const Step& step : in_time.steps) {
    Step bytes_step;
    for (const Transfer& t : step.transfers) {
      const std::size_t cell = t.src * cols + t.dst;
      const double total = problem.bytes.at(t.src, t.dst);
      const double d = rates.at(t.src, t.dst);
      sent_time.at(t.src, t.dst) += t.amount;
      const double until =
          --pieces_left[cell] == 0 ? total : std::min(total, std::round(sent_time.at(t.src, t.dst) * d));
      const double amount = until - sent_bytes.at(t.src, t.dst);
      if (amount <= 0) continue;
      sent_bytes.at(t.src, t.dst) = until;
      bytes_step.transfers.push_back(Transfer{t.src, t.dst, amount});
      bytes_step.duration = std::max(bytes_step.duration, amount / d);
    }
    if (!bytes_step.transfers.empty()) out.steps.push_back(std::move(bytes_step));
  }
  return out;
}

}  // namespace baton::schedule::kpbs
