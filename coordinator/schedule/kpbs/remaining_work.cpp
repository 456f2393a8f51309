#include "coordinator/schedule/kpbs/remaining_work.h"

#include <algorithm>

namespace baton::schedule::kpbs {
namespace {

// The amount an edge with `left` to send sends in a step of `duration`.
double sent_in(double left, double duration) { return left <= duration * (1 + 1e-12) ? left : duration; }

}  // namespace

RemainingWork::RemainingWork(const Problem& problem)
    : k_(problem.k), beta_(problem.beta), senders_(static_cast<int>(problem.times.senders())),
      degree_(problem.times.senders() + problem.times.receivers(), 0), load_(degree_.size(), 0.0),
      sent_(degree_.size(), 0.0), ended_(degree_.size(), 0) {
  for (std::size_t i = 0; i < problem.times.senders(); ++i) {
    for (std::size_t j = 0; j < problem.times.receivers(); ++j) {
      const double w = problem.times.at(i, j);
      if (w <= 0) continue;
      const LiveEdge e{static_cast<int>(i), senders_ + static_cast<int>(j), w};
      live_.push_back(static_cast<int>(edges_.size()));
      edges_.push_back(e);
      for (int v : {e.sender, e.receiver}) {
        ++degree_[static_cast<std::size_t>(v)];
        load_[static_cast<std::size_t>(v)] += w;
      }
      total_ += w;
    }
  }
  refresh_bound();
}

void RemainingWork::refresh_bound() {
  const double heaviest = load_.empty() ? 0.0 : *std::max_element(load_.begin(), load_.end());
  const long degree = degree_.empty() ? 0 : *std::max_element(degree_.begin(), degree_.end());
  const auto m = static_cast<long>(live_.size());
  eta_d_ = live_.empty() ? 0.0 : std::max(heaviest, total_ / k_);
  eta_s_ = std::max(degree, (m + k_ - 1) / k_);
}

double RemainingWork::eta_after(const CandidateStep& step) const {
  double sent_total = 0;
  long ended = 0;
  for (int i : step.edges) {
    const LiveEdge& e = edges_[static_cast<std::size_t>(i)];
    const double a = sent_in(e.left, step.duration);
    const bool ends = a == e.left;
    for (int v : {e.sender, e.receiver}) {
      sent_[static_cast<std::size_t>(v)] = a;
      ended_[static_cast<std::size_t>(v)] = ends ? 1 : 0;
    }
    sent_total += a;
    ended += ends ? 1 : 0;
  }
  double heaviest = 0;
  long degree = 0;
  for (std::size_t v = 0; v < load_.size(); ++v) {
    heaviest = std::max(heaviest, load_[v] - sent_[v]);
    degree = std::max(degree, static_cast<long>(degree_[v] - ended_[v]));
  }
  for (int i : step.edges) {  // leave the scratch clean for the next call
    const LiveEdge& e = edges_[static_cast<std::size_t>(i)];
    for (int v : {e.sender, e.receiver}) {
      sent_[static_cast<std::size_t>(v)] = 0;
      ended_[static_cast<std::size_t>(v)] = 0;
    }
  }
  const long m = static_cast<long>(live_.size()) - ended;
  if (m == 0) return 0;
  const double eta_d = std::max(heaviest, (total_ - sent_total) / k_);
  const long eta_s = std::max(degree, (m + k_ - 1) / k_);
  return eta_d + beta_ * static_cast<double>(eta_s);
}

double RemainingWork::waste(const CandidateStep& step) const {
  return beta_ + step.duration - (eta() - eta_after(step));
}

std::vector<Transfer> RemainingWork::apply(const CandidateStep& step) {
  std::vector<Transfer> transfers;
  for (int i : step.edges) {
    LiveEdge& e = edges_[static_cast<std::size_t>(i)];
    const double a = sent_in(e.left, step.duration);
    transfers.push_back(
        Transfer{static_cast<std::size_t>(e.sender), static_cast<std::size_t>(e.receiver - senders_), a});
    const bool ends = a == e.left;
    e.left = ends ? 0.0 : e.left - a;
    for (int v : {e.sender, e.receiver}) {
      load_[static_cast<std::size_t>(v)] -= a;
      if (ends) --degree_[static_cast<std::size_t>(v)];
    }
    total_ -= a;
  }
  live_.erase(std::remove_if(live_.begin(), live_.end(), [this](int id) { return edge(id).left == 0; }), live_.end());
  refresh_bound();
  return transfers;
}

}  // namespace baton::schedule::kpbs
