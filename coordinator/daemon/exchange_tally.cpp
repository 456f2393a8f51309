#include "coordinator/daemon/exchange_tally.h"

#include <algorithm>

namespace baton::coordinator {

ExchangeTally::Outcome ExchangeTally::record(const std::string& node, const protocol::ExchangeReport& report,
                                             const std::function<std::vector<std::string>()>& members) {
  if (members_.empty()) {
    const std::vector<std::string> nodes = members();
    members_.insert(nodes.begin(), nodes.end());
  }
  if (!members_.contains(node)) return Outcome::not_a_member;
  auto [at, fresh] = pending_.try_emplace(report.range());
  if (fresh) {
    order_.push_back(report.range());
    if (order_.size() > kMaxPending) {
      pending_.erase(order_.front());
      order_.pop_front();
    }
  }
  Pending& exchange = at->second;
  if (!exchange.reported.insert(node).second) return Outcome::pending;  // said twice: counted once
  exchange.seconds = std::max(exchange.seconds, report.seconds());
  Outcome outcome = Outcome::pending;
  if (!report.ok() && !exchange.failed) {
    exchange.failed = true;
    ++failed_;
    last_error_ = "node " + node + ": " + report.error();
    outcome = Outcome::failed;
  }
  if (exchange.reported.size() < members_.size()) return outcome;
  if (!exchange.failed) {
    ++done_;
    last_seconds_ = exchange.seconds;
    outcome = Outcome::done;
  }
  pending_.erase(at);
  order_.erase(std::ranges::find(order_, report.range()));
  return outcome;
}

}  // namespace baton::coordinator
